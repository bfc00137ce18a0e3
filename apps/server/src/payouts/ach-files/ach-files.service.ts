import type { SignedInUser } from '../../auth/sessions';
import { downloadAchFile, previewAchFile, type AchFileDeps } from './use-cases/ach-file-of-day';

export type { AchFileDeps, AchFileView } from './use-cases/ach-file-of-day';

/** The day's ACH payout file (docs/design.md, "ACH file"): its figures, and the file itself. */
export function createAchFileService(deps: AchFileDeps) {
  return {
    /** What the day's file holds (stored) or would hold; makes nothing. */
    summary: (day: string) => previewAchFile(deps, day),
    /** The day's file: made and its payouts marked submitted the first time, the same bytes after. */
    download: (request: { staff: SignedInUser; day: string }) => downloadAchFile(deps, request),
  };
}

export type AchFileService = ReturnType<typeof createAchFileService>;
