import type { ApiFailure } from "@tp/domain/api";
import type { ErrorCode } from "@tp/domain/error-codes";
import { serverMessages } from "@tp/domain/messages";
import type { FieldErrors } from "@tp/domain/validation";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, httpStatusByCode } from "./errors.ts";

/** Fastify's own request errors, by code, mapped onto ours. */
const fastifyCodes: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: "MALFORMED_REQUEST",
    message: serverMessages.malformedJson,
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: "MALFORMED_REQUEST", message: serverMessages.malformedJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "BODY_TOO_LARGE", message: serverMessages.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: "UNSUPPORTED_MEDIA_TYPE",
    message: serverMessages.unsupportedMediaType,
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: "MALFORMED_REQUEST",
    message: serverMessages.malformedRequest,
  },
};

/**
 * The one error handler: every failure leaves as the failure envelope with the status of
 * its code. A 5xx says only "Internal Server Error" and the detail goes to the log.
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let code: ErrorCode;
    let message: string;
    let fieldErrors: FieldErrors | undefined;

    if (error instanceof AppError) {
      code = error.code;
      message = error.message;
      fieldErrors = error.fieldErrors;
      if (error.headers) reply.headers(error.headers);
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      fieldErrors = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, "").replace(/\//g, ".") || "_";
        const text = issue.message ?? serverMessages.validationFailed;
        const list = fieldErrors[field] ?? [];
        if (!list.includes(text)) list.push(text);
        fieldErrors[field] = list;
      }
      // Bad query or params are a malformed request; a bad body is a form that failed.
      code = error.validationContext === "body" ? "VALIDATION_FAILED" : "MALFORMED_REQUEST";
      // A body that is not an object at all has no field to blame.
      message =
        fieldErrors._ !== undefined
          ? serverMessages.validationFailed
          : (Object.values(fieldErrors)[0]?.[0] ?? serverMessages.validationFailed);
    } else if (error.code && fastifyCodes[error.code]) {
      ({ code, message } = fastifyCodes[error.code]!);
    } else if (
      typeof error.statusCode === "number" &&
      error.statusCode >= 400 &&
      error.statusCode < 500
    ) {
      // Any other request error Fastify raised before our code ran.
      code = "MALFORMED_REQUEST";
      message = serverMessages.malformedRequest;
    } else {
      code = "INTERNAL";
      message = serverMessages.internal;
    }

    const status = httpStatusByCode[code];
    // Our failures are errors; an outside provider being down is expected weather (its
    // adapter logs the cause once per failure, not per request).
    if (code === "INTERNAL") request.log.error({ err: error }, "request failed");
    else if (status >= 500) request.log.warn({ code, status }, "request refused: dependency down");
    else request.log.info({ code, status }, "request refused");

    const body: ApiFailure = { status: "error", message, code };
    if (fieldErrors && Object.keys(fieldErrors).length > 0) body.errors = fieldErrors;
    return reply.status(status).send(body);
  });
}
