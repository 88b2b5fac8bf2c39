import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorMessage } from "../../api/client.ts";
import { buttonClass } from "../../components/button.tsx";
import { SpinnerIcon } from "../../components/icons.tsx";
import { adminFileQuery } from "../api/admin-file.ts";

/**
 * True once the page's Content-Security-Policy refused to frame a blob: URL (a policy without
 * `frame-src blob:`): the PDF then cannot show inline, and the preview says so instead of
 * leaving an empty frame. Opening the object URL in a tab is a navigation and still works.
 */
function useBlobFramesBlocked(): boolean {
  const [blocked, setBlocked] = useState(false);
  useEffect(() => {
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      const directive = event.effectiveDirective || event.violatedDirective;
      if (event.blockedURI.startsWith("blob") && directive.startsWith("frame-src")) {
        setBlocked(true);
      }
    };
    document.addEventListener("securitypolicyviolation", onViolation);
    return () => document.removeEventListener("securitypolicyviolation", onViolation);
  }, []);
  return blocked;
}

/** An object URL for the blob while it is shown, revoked when it goes. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (blob === undefined) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}

const frame =
  "flex h-[min(60vh,32rem)] w-full items-center justify-center overflow-hidden rounded-xl border border-slate-200 bg-slate-100 dark:border-navy-700 dark:bg-navy-950";

/**
 * A receipt or identity document shown inline: fetched with the bearer token (the server
 * serves it only to staff and the owner, as an attachment) and shown through an object URL,
 * an image as an image, a PDF in a frame, with a link to open or save it.
 */
export function FilePreview({
  path,
  contentType,
  label,
  downloadName,
}: {
  path: string;
  /** The stored upload's type as the list gives it; the reply's own type is the fallback. */
  contentType: string | null;
  /** Alternative text and frame title: "Receipt of deposit #12". */
  label: string;
  downloadName: string;
}) {
  const file = useQuery(adminFileQuery(path));
  const url = useObjectUrl(file.data);
  const framesBlocked = useBlobFramesBlocked();

  if (file.isError) {
    return (
      <div className={`${frame} flex-col gap-3 p-4 text-center`}>
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {errorMessage(file.error, "The file could not be loaded")}
        </p>
        <button
          type="button"
          className={buttonClass("secondary", "sm")}
          onClick={() => void file.refetch()}
        >
          Try again
        </button>
      </div>
    );
  }
  if (url === null || file.data === undefined) {
    return (
      <div className={frame} role="status">
        <SpinnerIcon className="size-5 text-brand-500" />
        <span className="ml-2 text-sm text-slate-500">Loading the file...</span>
      </div>
    );
  }

  const type = contentType || file.data.type;
  const isImage = type.startsWith("image/");
  return (
    <div>
      {isImage ? (
        <a href={url} target="_blank" rel="noopener" className={frame} title="Open full size">
          <img src={url} alt={label} className="max-h-full max-w-full object-contain" />
        </a>
      ) : framesBlocked ? (
        <div className={`${frame} flex-col gap-3 p-4 text-center`}>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            This browser cannot show the PDF inside the page.
          </p>
          <a href={url} target="_blank" rel="noopener" className={buttonClass("primary", "sm")}>
            Open the PDF in a new tab
          </a>
        </div>
      ) : (
        <iframe src={url} title={label} className={`${frame} bg-white`} />
      )}
      <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
        <span>
          {type === "application/pdf" ? "PDF" : type.replace("image/", "").toUpperCase()} ·{" "}
          {formatBytes(file.data.size)}
        </span>
        <a
          href={url}
          target="_blank"
          rel="noopener"
          className="ml-auto font-semibold text-brand-700 hover:underline dark:text-brand-300"
        >
          Open in new tab
        </a>
        <a
          href={url}
          download={downloadName}
          className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
        >
          Download
        </a>
      </div>
    </div>
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
