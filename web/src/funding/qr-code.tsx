import qrcode from "qrcode-generator";
import { useMemo } from "react";

/** Quiet zone around the code, in modules (the standard asks for 4). */
const quiet_zone_modules = 4;

/**
 * A QR code of `value`, drawn here as one SVG path (no network, no image service): dark
 * modules on white in both themes, since scanners expect that contrast.
 */
export function QrCode({
  value,
  label,
  size = 176,
}: {
  value: string;
  label: string;
  size?: number;
}) {
  const drawing = useMemo(() => {
    const code = qrcode(0, "M");
    code.addData(value);
    code.make();
    const count = code.getModuleCount();
    let path = "";
    for (let row = 0; row < count; row += 1) {
      for (let column = 0; column < count; column += 1) {
        if (code.isDark(row, column)) {
          path += `M${column + quiet_zone_modules} ${row + quiet_zone_modules}h1v1h-1z`;
        }
      }
    }
    return { path, extent: count + quiet_zone_modules * 2 };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${drawing.extent} ${drawing.extent}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className="rounded-lg bg-white"
    >
      <rect width={drawing.extent} height={drawing.extent} fill="#ffffff" />
      <path d={drawing.path} fill="#0f1d38" />
    </svg>
  );
}
