import { paths } from '../../config/paths';

// The console's own routes, under /admin.
const base = paths.admin;

export const adminPaths = {
  queue: base,
  orders: `${base}/orders`,
  order: (id: string) => `${base}/orders/${encodeURIComponent(id)}`,
  payouts: `${base}/payouts`,
  kyc: `${base}/kyc`,
  kycCase: (userId: string) => `${base}/kyc/${encodeURIComponent(userId)}`,
  cases: `${base}/cases`,
  plans: `${base}/plans`,
  case: (caseId: string) => `${base}/cases/${encodeURIComponent(caseId)}`,
  customers: `${base}/customers`,
  customer: (userId: string) => `${base}/customers/${encodeURIComponent(userId)}`,
  settings: `${base}/settings`,
  places: `${base}/places`,
  audit: `${base}/audit`,
  security: `${base}/security`,
  form1099Da: (year?: string) => `${base}/tax/1099-da${year ? `?year=${encodeURIComponent(year)}` : ''}`,
} as const;
