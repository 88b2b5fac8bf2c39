/** A decorative chart card for the hero: shapes only, no figures (PRODUCT.md D6). */
export function HeroIllustration() {
  const candles = [
    { x: 40, open: 150, close: 128, high: 120, low: 158 },
    { x: 70, open: 128, close: 138, high: 122, low: 146 },
    { x: 100, open: 138, close: 112, high: 104, low: 142 },
    { x: 130, open: 112, close: 96, high: 88, low: 118 },
    { x: 160, open: 96, close: 108, high: 90, low: 114 },
    { x: 190, open: 108, close: 84, high: 76, low: 112 },
    { x: 220, open: 84, close: 70, high: 62, low: 90 },
    { x: 250, open: 70, close: 80, high: 64, low: 88 },
    { x: 280, open: 80, close: 58, high: 50, low: 84 },
  ];
  return (
    <svg viewBox="0 0 340 260" className="h-auto w-full" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="hero-area" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0%" stopColor="#3b82f6" stopOpacity="0.35" />
          <stop offset="100%" stopColor="#3b82f6" stopOpacity="0" />
        </linearGradient>
      </defs>
      <rect x="0.5" y="0.5" width="339" height="259" rx="18" fill="#0f1d38" stroke="#1f335b" />
      <rect x="20" y="18" width="70" height="8" rx="4" fill="#2c4474" />
      <rect x="100" y="18" width="40" height="8" rx="4" fill="#1f335b" />
      <circle cx="312" cy="22" r="5" fill="#34d399" />
      {[60, 100, 140, 180].map((y) => (
        <line key={y} x1="20" x2="320" y1={y} y2={y} stroke="#152646" strokeWidth="1" />
      ))}
      <path
        d="M20 170 C60 160 80 140 110 132 S160 110 190 96 S250 80 320 52 L320 200 L20 200 Z"
        fill="url(#hero-area)"
      />
      <path
        d="M20 170 C60 160 80 140 110 132 S160 110 190 96 S250 80 320 52"
        fill="none"
        stroke="#60a5fa"
        strokeWidth="2.5"
      />
      {candles.map((candle) => {
        const rising = candle.close < candle.open;
        const color = rising ? "#34d399" : "#f87171";
        const top = Math.min(candle.open, candle.close);
        return (
          <g key={candle.x}>
            <line
              x1={candle.x}
              x2={candle.x}
              y1={candle.high}
              y2={candle.low}
              stroke={color}
              strokeWidth="1.5"
            />
            <rect
              x={candle.x - 6}
              y={top}
              width="12"
              height={Math.abs(candle.open - candle.close) || 2}
              rx="2"
              fill={color}
            />
          </g>
        );
      })}
      <rect x="20" y="214" width="144" height="30" rx="10" fill="#059669" />
      <text
        x="92"
        y="234"
        textAnchor="middle"
        fill="#ffffff"
        fontSize="13"
        fontWeight="700"
        fontFamily="ui-sans-serif, system-ui, sans-serif"
      >
        CALL
      </text>
      <rect x="176" y="214" width="144" height="30" rx="10" fill="#dc2626" />
      <text
        x="248"
        y="234"
        textAnchor="middle"
        fill="#ffffff"
        fontSize="13"
        fontWeight="700"
        fontFamily="ui-sans-serif, system-ui, sans-serif"
      >
        PUT
      </text>
    </svg>
  );
}
