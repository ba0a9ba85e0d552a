/**
 * Key login (docs/api.md#calls; @simplewebauthn/server). The dashboard keeps no server round-trip for
 * a challenge: a registration signs over `enrollChallengeText(email, code)` (the one-time code
 * binds the new key to this sign-in) and a login over `loginChallengeText(timestamp, method,
 * path)`; the server recomputes both (lib/api.ts documents them). A login timestamp is accepted
 * once per key and only within 30 s of the server clock, so a captured assertion cannot be
 * replayed.
 */
import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import { enrollChallengeText, loginChallengeText } from "../../lib/api.js";
import type { App } from "../app.js";
import { taskFailed } from "../errors.js";
import type { WebAuthnCredentialRecord } from "../storage/types.js";
import { sha256Base64url } from "./secrets.js";

/** docs/api.md#calls: algorithms -8 (EdDSA), -7 (ES256), -257 (RS256). */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257];

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function b64url(value: string, field: string): string {
  const v = value.replace(/=+$/, "");
  if (!B64URL.test(v) || v.length > 8192) throw taskFailed(`Header ${field} must be base64url`);
  return v;
}

export async function verifyEnrollment(
  app: App,
  input: { email: string; code: string; credentialsId: string; attestationObject: string; clientData: string },
): Promise<{ id: string; publicKey: Uint8Array; counter: number }> {
  const id = b64url(input.credentialsId, "credentials-id");
  const expected = sha256Base64url(enrollChallengeText(input.email, input.code));
  try {
    const result = await verifyRegistrationResponse({
      response: {
        id,
        rawId: id,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          attestationObject: b64url(input.attestationObject, "public-key"),
          clientDataJSON: b64url(input.clientData, "client-data"),
        },
      },
      expectedChallenge: expected,
      expectedOrigin: app.origins(),
      expectedRPID: app.config.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
    if (!result.verified) throw new Error("not verified");
    const { credential } = result.registrationInfo;
    if (credential.id !== id) throw new Error("credential id differs from the header");
    return { id, publicKey: credential.publicKey, counter: credential.counter };
  } catch (error) {
    throw taskFailed(`The public key could not be verified: ${(error as Error).message}`, 400);
  }
}

export async function verifyKeyLogin(
  app: App,
  credential: WebAuthnCredentialRecord,
  input: {
    clientData: string;
    authenticatorData: string;
    signature: string;
    timestamp: number;
    method: string;
    path: string;
  },
): Promise<number> {
  const expected = sha256Base64url(loginChallengeText(input.timestamp, input.method, input.path));
  try {
    const result = await verifyAuthenticationResponse({
      response: {
        id: credential.id,
        rawId: credential.id,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(input.clientData, "client-data"),
          authenticatorData: b64url(input.authenticatorData, "authenticator-data"),
          signature: b64url(input.signature, "signature"),
        },
      },
      expectedChallenge: expected,
      expectedOrigin: app.origins(),
      expectedRPID: app.config.rpId,
      credential: { id: credential.id, publicKey: new Uint8Array(credential.publicKey), counter: credential.counter },
      requireUserVerification: true,
    });
    if (!result.verified) throw new Error("not verified");
    return result.authenticationInfo.newCounter;
  } catch (error) {
    throw taskFailed(`Key login refused: ${(error as Error).message}`, 401);
  }
}
