import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import type {
  AuthenticationOptions,
  AuthenticationResponse,
  RegistrationOptions,
  RegistrationResponse,
} from "@tp/domain/passkey-api";

/**
 * A software WebAuthn authenticator for server tests: real P-256 keys, real CBOR, real
 * signatures, "none" attestation, as a platform authenticator answers a browser. It plays
 * the browser too (it writes clientDataJSON with the origin it is told), so a test can
 * answer from a foreign origin, for another RP ID, without user verification, or with a
 * counter that went backwards. The browser journey uses Chromium's virtual authenticator.
 */
interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  signCount: number;
}

export interface AnswerOptions {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
  type?: string;
}

const flag_user_present = 0x01;
const flag_user_verified = 0x04;
const flag_attested_credential = 0x40;

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(readonly origin = "http://localhost:3000") {}

  /** Answers `navigator.credentials.create(options)`; keeps the new credential. */
  create(options: RegistrationOptions, answer: AnswerOptions = {}): RegistrationResponse {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const credential: SoftCredential = {
      id: randomBytes(32),
      privateKey,
      rpId: answer.rpId ?? options.rp.id ?? "localhost",
      userHandle: options.user.id,
      signCount: 0,
    };
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x ?? "", "base64url")],
      [-3, Buffer.from(jwk.y ?? "", "base64url")],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      authenticatorDataHead(credential, answer, flag_attested_credential),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]) as Parameters<typeof isoCBOR.encode>[0],
    );
    this.credentials.push(credential);
    const id = credential.id.toString("base64url");
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: clientData(
          answer.type ?? "webauthn.create",
          options.challenge,
          answer.origin ?? this.origin,
        ),
        attestationObject: Buffer.from(attestationObject).toString("base64url"),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** Answers `navigator.credentials.get(options)` with a credential (the last one by default). */
  get(
    options: AuthenticationOptions,
    answer: AnswerOptions & { credential?: SoftCredential; signCount?: number } = {},
  ): AuthenticationResponse {
    const credential = answer.credential ?? this.credentials.at(-1);
    if (!credential) throw new Error("the soft authenticator holds no credential");
    credential.signCount = answer.signCount ?? credential.signCount + 1;
    const authData = authenticatorDataHead(credential, answer, 0);
    const clientDataJSON = clientData(
      answer.type ?? "webauthn.get",
      options.challenge,
      answer.origin ?? this.origin,
    );
    const clientDataHash = createHash("sha256")
      .update(Buffer.from(clientDataJSON, "base64url"))
      .digest();
    const signature = sign(
      "sha256",
      Buffer.concat([authData, clientDataHash]),
      credential.privateKey,
    );
    const id = credential.id.toString("base64url");
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }
}

function authenticatorDataHead(
  credential: SoftCredential,
  answer: AnswerOptions,
  extraFlags: number,
): Buffer {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(credential.signCount);
  const flags =
    flag_user_present | (answer.userVerified === false ? 0 : flag_user_verified) | extraFlags;
  return Buffer.concat([
    createHash("sha256")
      .update(answer.rpId ?? credential.rpId)
      .digest(),
    Buffer.from([flags]),
    counter,
  ]);
}

function clientData(type: string, challenge: string, origin: string): string {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString(
    "base64url",
  );
}
