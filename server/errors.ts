import { API_ERROR, type ApiErrorBody, apiErrorMessage, HTTP_STATUS_OF_CODE } from "../lib/api.js";

/**
 * A failure with a docs/api.md#errors code (docs/decisions.md#d2). `msg` is the seed's message for 601–607 and
 * 609; 600 carries its own explanation and 608 the exchange layer's message.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  readonly kind?: string;
  readonly issues?: string[];

  constructor(code: number, options: { msg?: string; status?: number; kind?: string; issues?: string[] } = {}) {
    super(options.msg ?? apiErrorMessage(code));
    this.name = "ApiError";
    this.code = code;
    this.status = options.status ?? HTTP_STATUS_OF_CODE[code] ?? 400;
    if (options.kind !== undefined) this.kind = options.kind;
    if (options.issues !== undefined) this.issues = options.issues;
  }

  toBody(): ApiErrorBody {
    return {
      code: this.code,
      msg: this.message,
      ...(this.kind === undefined ? {} : { kind: this.kind }),
      ...(this.issues === undefined ? {} : { issues: this.issues }),
    };
  }
}

/** 600 with an explanation: bad input, not found, forbidden… (the seed leaves these open). */
export function taskFailed(msg: string, status = 400, issues?: string[]): ApiError {
  return new ApiError(API_ERROR.TASK_FAILED, { msg, status, ...(issues ? { issues } : {}) });
}

export const forbidden = (why: string): ApiError => taskFailed(`Forbidden: ${why}`, 403);
export const notFound = (what: string): ApiError => taskFailed(`Not found: ${what}`, 404);
