import { useId, type JSX, type ReactNode } from 'react';
import { PAYMENT_RAILS, type PaymentRail } from '@offzero/shared/rails/rails';

// Badges for the ways customers pay and get paid. Drawn inline (no image requests); the group is one
// image to assistive technology, named "Accepted payment methods".
const font = 'Arial, Helvetica, sans-serif';

function Badge({
  fill = '#ffffff',
  stroke = '#e2e8f0',
  children,
}: {
  fill?: string;
  stroke?: string;
  children: ReactNode;
}) {
  return (
    <svg viewBox="0 0 60 38" className="h-full w-auto" aria-hidden="true" focusable="false">
      <rect x="0.5" y="0.5" width="59" height="37" rx="6" fill={fill} stroke={stroke} />
      {children}
    </svg>
  );
}

function PayPalBadge() {
  return (
    <Badge>
      <text
        x="30"
        y="24"
        textAnchor="middle"
        fontFamily={font}
        fontSize="13"
        fontWeight="700"
        fontStyle="italic"
      >
        <tspan fill="#003087">Pay</tspan>
        <tspan fill="#009cde">Pal</tspan>
      </text>
    </Badge>
  );
}

function VisaBadge() {
  return (
    <Badge>
      <text
        x="30"
        y="25"
        textAnchor="middle"
        fontFamily={font}
        fontSize="15"
        fontWeight="900"
        fontStyle="italic"
        fill="#1a1f71"
        letterSpacing="0.5"
      >
        VISA
      </text>
    </Badge>
  );
}

function MasterCardBadge() {
  const clipId = useId();
  return (
    <Badge>
      <defs>
        <clipPath id={clipId}>
          <circle cx="24.5" cy="19" r="10" />
        </clipPath>
      </defs>
      <circle cx="24.5" cy="19" r="10" fill="#eb001b" />
      <circle cx="35.5" cy="19" r="10" fill="#f79e1b" />
      <circle cx="35.5" cy="19" r="10" fill="#ff5f00" clipPath={`url(#${clipId})`} />
    </Badge>
  );
}

function ZelleBadge() {
  return (
    <Badge fill="#6d1ed4" stroke="#6d1ed4">
      <text
        x="30"
        y="24.5"
        textAnchor="middle"
        fontFamily={font}
        fontSize="14"
        fontWeight="700"
        fill="#ffffff"
      >
        Zelle
      </text>
    </Badge>
  );
}

function AchBadge() {
  return (
    <Badge fill="#f1f5f9">
      <path
        d="M9 15.5 16 11l7 4.5H9Zm1.5 1.5v7m4-7v7m4-7v7m3-7v7M9 25.5h14"
        stroke="#0b1220"
        strokeWidth="1.5"
        fill="none"
        strokeLinejoin="round"
      />
      <text
        x="40"
        y="23.5"
        textAnchor="middle"
        fontFamily={font}
        fontSize="12"
        fontWeight="700"
        fill="#0b1220"
      >
        ACH
      </text>
    </Badge>
  );
}

function WireBadge() {
  return (
    <Badge fill="#0b1220" stroke="#0b1220">
      <path
        d="M9 15h10l-3-3m3 11H9l3 3"
        stroke="#f7931a"
        strokeWidth="1.8"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <text
        x="38.5"
        y="23.5"
        textAnchor="middle"
        fontFamily={font}
        fontSize="11"
        fontWeight="700"
        fill="#ffffff"
        letterSpacing="0.5"
      >
        WIRE
      </text>
    </Badge>
  );
}

/** Instant bank transfer (RTP, FedNow): a lightning bolt, for money that arrives in seconds. */
function InstantBadge() {
  return (
    <Badge fill="#ecfdf5" stroke="#a7f3d0">
      <path d="M16 9.5 10 20h5l-2 8.5 7-11h-5l2-8Z" fill="#059669" />
      <text
        x="39"
        y="23.5"
        textAnchor="middle"
        fontFamily={font}
        fontSize="10"
        fontWeight="700"
        fill="#065f46"
      >
        NOW
      </text>
    </Badge>
  );
}

/** A rail's tile: its badge, and the badges shown after it in the accepted-methods strip. */
interface RailTile {
  badge: () => JSX.Element;
  alongside?: readonly (readonly [name: string, badge: () => JSX.Element])[];
}

/** Every rail dollars move by has a tile (TypeScript refuses a rail without one). */
const RAIL_TILES: Record<PaymentRail, RailTile> = {
  // PayPal's checkout takes cards too.
  paypal: {
    badge: PayPalBadge,
    alongside: [
      ['visa', VisaBadge],
      ['mastercard', MasterCardBadge],
    ],
  },
  zelle: { badge: ZelleBadge },
  ach: { badge: AchBadge },
  wire: { badge: WireBadge },
  instant: { badge: InstantBadge },
};

/** The accepted-methods strip: each rail's tile in registry order, with what shows alongside it. */
const badges = PAYMENT_RAILS.flatMap((id) => [
  [id, RAIL_TILES[id].badge] as const,
  ...(RAIL_TILES[id].alongside ?? []),
]);

/** One method's badge on its own (the trade widget's method tiles); decorative, the tile names it. */
export function PaymentMethodBadge({ method, className }: { method: PaymentRail; className?: string }) {
  const BadgeComponent = RAIL_TILES[method].badge;
  return (
    <span className={`inline-block h-8 ${className ?? ''}`}>
      <BadgeComponent />
    </span>
  );
}

export function PaymentMethods({ className }: { className?: string }) {
  return (
    <div
      role="img"
      aria-label="Accepted payment methods"
      className={`flex flex-wrap items-center gap-1.5 ${className ?? ''}`}
    >
      {badges.map(([name, BadgeComponent]) => (
        <span key={name} className="h-7 sm:h-8">
          <BadgeComponent />
        </span>
      ))}
    </div>
  );
}
