/**
 * Line icons for the public pages; decorative, so hidden from assistive technology. The glyphs
 * the catalogue's cards repeat (shield, clock, star, people) live in the stylesheet as `.icon-*`
 * masks, so a card spends no markup on them; ShieldCheckIcon and ClockIcon draw those same glyphs.
 */
const outline = {
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.8,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
};
const common = { "aria-hidden": true, viewBox: "0 0 24 24", ...outline };

export function LayersIcon({ className = "h-6 w-6" }: { className?: string }) {
  return (
    <svg {...common} className={className}>
      <path d="M12 3 3 8l9 5 9-5-9-5Z" />
      <path d="m3 13 9 5 9-5" />
      <path d="m3 17.5 9 5 9-5" opacity=".55" />
    </svg>
  );
}

export function HardHatIcon({ className = "h-6 w-6" }: { className?: string }) {
  return (
    <svg {...common} className={className}>
      <path d="M3 17h18v2H3z" />
      <path d="M5 17v-3a7 7 0 0 1 14 0v3" />
      <path d="M10 7.3V5h4v2.3" />
      <path d="M12 5v6" />
    </svg>
  );
}

export function BookIcon({ className = "h-6 w-6" }: { className?: string }) {
  return (
    <svg {...common} className={className}>
      <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3H20v15H6.5A2.5 2.5 0 0 0 4 20.5v-15Z" />
      <path d="M4 20.5A2.5 2.5 0 0 1 6.5 18H20v3H6.5" />
      <path d="M9 8h7M9 11.5h5" />
    </svg>
  );
}

export function ShieldCheckIcon({ className = "h-6 w-6" }: { className?: string }) {
  return <span aria-hidden className={`icon icon-shield-check ${className}`} />;
}

export function CheckIcon({ className = "h-5 w-5" }: { className?: string }) {
  return (
    <svg {...common} className={className} strokeWidth={2.4}>
      <path d="m5 12.5 4.2 4.2L19 7" />
    </svg>
  );
}

export function ClockIcon({ className = "h-4 w-4" }: { className?: string }) {
  return <span aria-hidden className={`icon icon-clock ${className}`} />;
}

export function ArrowRightIcon({ className = "h-4 w-4" }: { className?: string }) {
  return (
    <svg {...common} className={className} strokeWidth={2.2}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </svg>
  );
}

export function KeyIcon({ className = "h-4 w-4" }: { className?: string }) {
  return (
    <svg {...common} className={className}>
      <circle cx="8" cy="15" r="4" />
      <path d="m11 12 9-9M16.5 6.5l2.5 2.5M14 9l2 2" />
    </svg>
  );
}

/**
 * A luffing tower crane over a half-built frame: the hero's illustration. Pure SVG, so it
 * costs no request and scales to any screen.
 */
export function TowerCraneArt({ className }: { className?: string }) {
  return (
    <svg aria-hidden viewBox="0 0 420 360" className={className} fill="none">
      <defs>
        <linearGradient id="sky-glow" x1="0" x2="0" y1="0" y2="1">
          <stop offset="0" stopColor="#fb9b24" stopOpacity=".35" />
          <stop offset="1" stopColor="#fb9b24" stopOpacity="0" />
        </linearGradient>
      </defs>
      <circle cx="300" cy="120" r="110" fill="url(#sky-glow)" />
      {/* mast */}
      <g stroke="#fcb54d" strokeWidth="3">
        <path d="M150 340V70M176 340V70" />
        {Array.from({ length: 10 }, (_, i) => (
          <path key={i} d={`M150 ${340 - i * 27}l26 -27M176 ${340 - i * 27}l-26 -27`} strokeWidth="1.6" />
        ))}
      </g>
      {/* slewing unit and cab */}
      <rect x="140" y="54" width="46" height="18" rx="2" fill="#f07a0b" />
      <rect x="178" y="58" width="20" height="18" rx="2" fill="#fcb54d" />
      <rect x="182" y="62" width="12" height="8" rx="1" fill="#172334" />
      {/* apex and jib */}
      <path d="M163 54 163 14" stroke="#fcb54d" strokeWidth="3" />
      <path d="M163 16 400 56M163 16 60 52" stroke="#fcb54d" strokeWidth="1.8" />
      <path d="M186 56H404M60 56h80" stroke="#fcb54d" strokeWidth="5" strokeLinecap="round" />
      <g stroke="#fcb54d" strokeWidth="1.4" opacity=".85">
        {Array.from({ length: 9 }, (_, i) => (
          <path key={i} d={`M${200 + i * 23} 56l11 -${8 + i * 0.4}`} />
        ))}
      </g>
      {/* counterweight */}
      <rect x="62" y="58" width="44" height="22" rx="2" fill="#4f6b89" />
      {/* trolley, hoist line, hook and load */}
      <rect x="318" y="58" width="18" height="7" rx="1.5" fill="#f07a0b" />
      <path d="M327 65v118" stroke="#e3e9f0" strokeWidth="1.5" />
      <path d="M327 183c0 8 7 8 7 15s-5 8-7 8-6-2-6-6" stroke="#e3e9f0" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M327 206 296 230M327 206l31 24" stroke="#e3e9f0" strokeWidth="1.5" />
      <rect x="284" y="230" width="86" height="16" rx="2" fill="#f07a0b" />
      <rect x="284" y="230" width="86" height="5" fill="#fb9b24" />
      {/* building frame */}
      <g stroke="#6f8aa6" strokeWidth="3">
        <path d="M228 340V270h170v70M228 305h170M285 270v70M341 270v70" />
      </g>
      <path d="M0 340h420" stroke="#9fb3c7" strokeWidth="3" />
    </svg>
  );
}
