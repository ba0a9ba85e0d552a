/**
 * Platform credentials (docs/api.md#calls): created with a 30 s time-out, user verification required and
 * algorithms -8, -7, -257; a key login signs over the timestamp, method and path. The challenges
 * are the ones lib/api.ts documents, so no server round-trip is needed for them.
 */
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { enrollChallengeText, HEADER, loginChallengeText } from "../../../../lib/api.js";

export const WEBAUTHN_TIMEOUT_MS = 30_000;
export const WEBAUTHN_ALGORITHMS = [-8, -7, -257] as const;

async function sha256Base64url(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let binary = "";
  for (const b of digest) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function randomBase64url(bytes: number): string {
  let binary = "";
  for (const b of crypto.getRandomValues(new Uint8Array(bytes))) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Creates a platform credential bound to this sign-in; returns the headers for /register or /login/password. */
export async function createKeyHeaders(email: string, code: string): Promise<Record<string, string>> {
  const address = email.trim().toLowerCase();
  const credential = await startRegistration({
    optionsJSON: {
      challenge: await sha256Base64url(enrollChallengeText(address, code.trim().toUpperCase())),
      rp: { name: "spotdesk", id: window.location.hostname },
      user: { id: randomBase64url(16), name: address, displayName: address },
      pubKeyCredParams: WEBAUTHN_ALGORITHMS.map((alg) => ({ type: "public-key" as const, alg })),
      timeout: WEBAUTHN_TIMEOUT_MS,
      attestation: "none",
      authenticatorSelection: {
        authenticatorAttachment: "platform",
        userVerification: "required",
        residentKey: "preferred",
      },
    },
  });
  return {
    [HEADER.publicKey]: credential.response.attestationObject,
    [HEADER.credentialsId]: credential.id,
    [HEADER.clientData]: credential.response.clientDataJSON,
  };
}

/** Signs a key login for POST /login/signature; returns its headers (timestamp included). */
export async function signKeyLogin(
  email: string,
  credentialIds: readonly string[],
  now = Date.now(),
): Promise<Record<string, string>> {
  const timestamp = String(now);
  const assertion = await startAuthentication({
    optionsJSON: {
      challenge: await sha256Base64url(loginChallengeText(timestamp, "POST", "/login/signature")),
      allowCredentials: credentialIds.map((id) => ({ id, type: "public-key" as const })),
      userVerification: "required",
      timeout: WEBAUTHN_TIMEOUT_MS,
      rpId: window.location.hostname,
    },
  });
  return {
    [HEADER.email]: email.trim().toLowerCase(),
    [HEADER.clientData]: assertion.response.clientDataJSON,
    [HEADER.authenticatorData]: assertion.response.authenticatorData,
    [HEADER.credentialsId]: assertion.id,
    [HEADER.signature]: assertion.response.signature,
    [HEADER.timestamp]: timestamp,
  };
}
