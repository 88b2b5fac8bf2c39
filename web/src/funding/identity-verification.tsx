import { useQuery } from "@tanstack/react-query";
import {
  type IdType,
  idTypeLabels,
  idTypes,
  fundingMessages as m,
  type VerificationView,
} from "@tp/domain/funding";
import { identityAccept, identityContentTypes } from "@tp/domain/funding-files";
import { type FormEvent, useId, useRef, useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage, fieldErrorsOf } from "../api/client.ts";
import { useUploadVerificationMutation } from "../api/upload-verification.ts";
import { verificationsQueryOptions } from "../api/verifications.ts";
import { Button } from "../components/button.tsx";
import { CheckboxField, SelectField } from "../components/form-fields.tsx";
import { formatDateTime } from "../components/trade-format.ts";
import { checkUploadFile } from "./file-check.ts";
import { UploadIcon } from "./funding-icons.tsx";

type Standing = "approved" | "pending" | "rejected" | "none";

/** The account's identity standing: approved once kyc_verified_at is set, else the latest document's. */
export function identityStanding(
  kycVerifiedAt: string | null,
  latest: VerificationView | undefined,
): Standing {
  if (kycVerifiedAt !== null) return "approved";
  if (latest === undefined) return "none";
  if (latest.status === "approved") return "approved";
  return latest.status;
}

const standingText: Record<Standing, { label: string; tone: string }> = {
  approved: {
    label: "Approved",
    tone: "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300",
  },
  pending: {
    label: "Pending review",
    tone: "bg-yellow-100 text-yellow-800 dark:bg-yellow-500/15 dark:text-yellow-300",
  },
  rejected: {
    label: "Rejected",
    tone: "bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300",
  },
  none: {
    label: "Not verified",
    tone: "bg-slate-200 text-slate-700 dark:bg-navy-800 dark:text-slate-300",
  },
};

/**
 * The Security page's ID verification (SPEC §2, §5, §8): the document's review status, and
 * the upload form (ID type, file, terms) while nothing is approved or under review.
 */
export function IdentityVerification({ kycVerifiedAt }: { kycVerifiedAt: string | null }) {
  const verifications = useQuery(verificationsQueryOptions());
  const latest = verifications.data?.data[0];
  const standing = identityStanding(verifications.data?.kyc_verified_at ?? kycVerifiedAt, latest);
  const { label, tone } = standingText[standing];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-slate-700 dark:text-slate-200">Status:</span>
        <span
          data-testid="verification-status"
          className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone}`}
        >
          {label}
        </span>
      </div>
      {standing === "approved" ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Your identity is verified. Your account status is Active.
        </p>
      ) : null}
      {standing === "pending" && latest ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Your {latest.id_type ? idTypeLabels[latest.id_type] : "document"}, uploaded on{" "}
          {formatDateTime(latest.created_at)}, is being reviewed. You will get a notification when
          it is done.
        </p>
      ) : null}
      {standing === "rejected" && latest ? (
        <div
          role="status"
          className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-300"
        >
          Your last document was rejected
          {latest.rejection_reason ? `: ${latest.rejection_reason}` : "."} Please upload a new one.
        </div>
      ) : null}
      {standing === "none" || standing === "rejected" ? <IdentityUploadForm /> : null}
    </div>
  );
}

interface UploadErrors {
  id_type?: string | undefined;
  file?: string | undefined;
  accept_terms?: string | undefined;
}

function IdentityUploadForm() {
  const fileId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [idType, setIdType] = useState<IdType | "">("");
  const [file, setFile] = useState<File | null>(null);
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [errors, setErrors] = useState<UploadErrors>({});
  const upload = useUploadVerificationMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: UploadErrors = {};
    next.file =
      (await checkUploadFile(file, identityContentTypes, {
        required: m.fileRequired,
        type: m.identityFileType,
      })) ?? undefined;
    if (!acceptTerms) next.accept_terms = m.acceptTermsFirst;
    setErrors(next);
    if (next.accept_terms) toast.error(m.acceptTermsFirst);
    if (next.file || next.accept_terms || file === null) return;
    try {
      await upload.mutateAsync({ idType: idType === "" ? null : idType, file, acceptTerms });
      toast.success(m.verificationUploaded);
      setFile(null);
      setAcceptTerms(false);
      if (fileRef.current) fileRef.current.value = "";
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors({
        id_type: fields.id_type?.[0],
        file: fields.file?.[0],
        accept_terms: fields.accept_terms?.[0],
      });
      toast.error(errorMessage(error, m.verificationFailed));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="grid grid-cols-[minmax(0,1fr)] gap-4 md:grid-cols-2"
    >
      <SelectField
        label="ID type"
        value={idType}
        error={errors.id_type}
        onChange={(event) => setIdType(event.target.value as IdType | "")}
      >
        <option value="">Select ID type</option>
        {idTypes.map((type) => (
          <option key={type} value={type}>
            {idTypeLabels[type]}
          </option>
        ))}
      </SelectField>
      <div>
        <label
          htmlFor={fileId}
          className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200"
        >
          ID document
        </label>
        <div
          className={`flex items-center gap-3 rounded-lg border px-3 py-2 ${
            errors.file ? "border-red-500" : "border-slate-300 dark:border-navy-600"
          }`}
        >
          <UploadIcon className="size-5 shrink-0 text-slate-400" />
          <input
            ref={fileRef}
            id={fileId}
            type="file"
            accept={identityAccept}
            aria-invalid={errors.file ? true : undefined}
            aria-describedby={`${fileId}-hint${errors.file ? ` ${fileId}-error` : ""}`}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setErrors((current) => ({ ...current, file: undefined }));
            }}
            className="min-w-0 flex-1 text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-600/10 file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-brand-700 dark:text-slate-200 dark:file:bg-brand-500/20 dark:file:text-brand-200"
          />
        </div>
        <p id={`${fileId}-hint`} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          JPG, JPEG, PNG or PDF, up to 10 MB.
        </p>
        {errors.file ? (
          <p
            id={`${fileId}-error`}
            className="mt-1 text-xs font-medium text-red-600 dark:text-red-400"
          >
            {errors.file}
          </p>
        ) : null}
      </div>
      <CheckboxField
        className="md:col-span-2"
        label="I confirm this document is mine and valid, and I accept that it is checked to verify my identity."
        checked={acceptTerms}
        error={errors.accept_terms}
        onChange={(event) => {
          setAcceptTerms(event.target.checked);
          if (event.target.checked)
            setErrors((current) => ({ ...current, accept_terms: undefined }));
        }}
      />
      <div className="flex justify-end md:col-span-2">
        <Button type="submit" busy={upload.isPending}>
          Upload documents
        </Button>
      </div>
    </form>
  );
}
