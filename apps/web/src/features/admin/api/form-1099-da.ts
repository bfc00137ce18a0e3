import { useQuery } from '@tanstack/react-query';
import { apiGetFile } from '../../../lib/api-client';

// Form 1099-DA worksheet (docs/design.md). Every fetch of the file is audited by the server, so it is
// read once per year shown and not again when the window regains focus.

export const download1099Da = (year: number) => apiGetFile(`/admin/tax/1099-da?year=${year}`);

export function useForm1099Da(year: number) {
  return useQuery({
    // Not under ADMIN_KEY: the console's other changes invalidate that, and each reload here is audited.
    queryKey: ['form-1099-da', year],
    queryFn: async ({ signal }) => {
      const { blob } = await apiGetFile(`/admin/tax/1099-da?year=${year}`, signal);
      return blob.text();
    },
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
