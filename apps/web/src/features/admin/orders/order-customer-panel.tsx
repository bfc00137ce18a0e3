import { Link } from 'react-router';
import type { OrderDetail } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { Details, IdWithCopy, Panel } from '../components/blocks';

export function CustomerPanel({ customer }: { customer: OrderDetail['customer'] }) {
  return (
    <Panel title="Customer" testId="order-customer">
      {customer ? (
        <Details
          rows={[
            [
              'Name',
              `${customer.firstName} ${customer.lastName}`.trim() || (
                <span className="text-slate-500">not given</span>
              ),
            ],
            [
              'E-mail',
              <Link
                key="email"
                to={adminPaths.customer(customer._id)}
                className="break-all text-brand-700 hover:underline"
              >
                {customer.email}
              </Link>,
            ],
            ['Phone', customer.phoneNumber],
            [
              'Customer id',
              <IdWithCopy
                key="id"
                value={customer._id}
                label="Copy customer id"
                display={customer._id.slice(0, 8)}
              />,
            ],
          ]}
        />
      ) : (
        <p className="text-sm text-slate-500">The customer record is missing.</p>
      )}
    </Panel>
  );
}
