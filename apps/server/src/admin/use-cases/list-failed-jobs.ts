import type { JobQueue, ParkedJob } from '../../jobs/job-queue';

/** Background jobs that failed every try, newest first, with their errors. */
export async function listFailedJobs(deps: { jobs: Pick<JobQueue, 'failed'> }): Promise<ParkedJob[]> {
  return deps.jobs.failed();
}
