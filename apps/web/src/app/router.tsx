import type { RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { RootLayout } from './layouts/root-layout';
import { PublicLayout } from './layouts/public-layout';
import { RouteErrorPage } from './routes/route-error';
import { PageLoading } from './routes/page-loading';
import { GuestOnly, RequireSignedIn } from './guards';

// Page modules load on demand so a visitor of the home page does not download the dashboard.
const page = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    // Shown while the first page's module loads; without it the router warns on every first load.
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: paths.home, ...page(() => import('./routes/home')) },
          { path: paths.about, ...page(() => import('../features/marketing/about-page')) },
          { path: paths.termsOfUse, ...page(() => import('../features/legal/terms-of-use-page')) },
          { path: paths.privacyPolicy, ...page(() => import('../features/legal/privacy-policy-page')) },
          { path: paths.cookiePolicy, ...page(() => import('../features/legal/cookie-policy-page')) },
          { path: paths.refundPolicy, ...page(() => import('../features/legal/refund-policy-page')) },
          { path: paths.devOutbox, ...page(() => import('../features/dev/outbox-page')) },
          {
            element: <GuestOnly />,
            children: [
              { path: paths.login, ...page(() => import('../features/auth/login-page')) },
              { path: paths.register, ...page(() => import('../features/auth/register-page')) },
            ],
          },
          { path: '*', ...page(() => import('./routes/not-found')) },
        ],
      },
      {
        element: <RequireSignedIn />,
        children: [
          {
            lazy: async () => ({ Component: (await import('./layouts/dashboard-layout')).DashboardLayout }),
            children: [
              { path: paths.dashboard, ...page(() => import('./routes/dashboard')) },
              { path: paths.orders, ...page(() => import('./routes/orders')) },
              { path: paths.settings, ...page(() => import('./routes/settings')) },
              { path: paths.taxCenter, ...page(() => import('../features/tax/tax-center-page')) },
              {
                path: paths.confirmPayoutAddress,
                ...page(() => import('../features/payout-addresses/confirm-payout-address-page')),
              },
              {
                path: paths.referralHistory,
                ...page(() => import('../features/referrals/referral-history-page')),
              },
            ],
          },
          // The back office: its own shell, admins only (the shell shows anyone else "Not authorised").
          {
            path: paths.admin,
            ...page(() => import('../features/admin/admin-shell')),
            children: [
              { index: true, ...page(() => import('../features/admin/queue/work-queue-page')) },
              { path: 'orders', ...page(() => import('../features/admin/orders/orders-page')) },
              { path: 'orders/:orderId', ...page(() => import('../features/admin/orders/order-page')) },
              { path: 'payouts', ...page(() => import('../features/admin/payouts/payouts-page')) },
              { path: 'kyc', ...page(() => import('../features/admin/kyc/kyc-cases-page')) },
              { path: 'kyc/:userId', ...page(() => import('../features/admin/kyc/kyc-case-page')) },
              { path: 'cases', ...page(() => import('../features/admin/cases/cases-page')) },
              { path: 'cases/:caseId', ...page(() => import('../features/admin/cases/case-page')) },
              { path: 'plans', ...page(() => import('../features/admin/plans/plans-page')) },
              { path: 'customers', ...page(() => import('../features/admin/customers/customers-page')) },
              {
                path: 'customers/:userId',
                ...page(() => import('../features/admin/customers/customer-page')),
              },
              { path: 'settings', ...page(() => import('../features/admin/settings/settings-page')) },
              { path: 'places', ...page(() => import('../features/admin/places/places-page')) },
              { path: 'audit', ...page(() => import('../features/admin/audit/audit-page')) },
              { path: 'security', ...page(() => import('./routes/admin-security')) },
              { path: 'tax/1099-da', ...page(() => import('../features/admin/tax/form-1099-da-page')) },
              { path: '*', ...page(() => import('../features/admin/admin-not-found-page')) },
            ],
          },
        ],
      },
    ],
  },
];
