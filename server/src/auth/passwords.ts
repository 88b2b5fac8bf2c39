import argon2 from "argon2";

/**
 * argon2id at OWASP's minimum for it (m = 19 MiB, t = 2, p = 1). The parameters travel
 * inside each hash, so raising them later re-hashes nothing and verifies everything.
 */
const hashOptions = {
  type: argon2.argon2id,
  memoryCost: 19_456, // KiB
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, hashOptions);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash when there is no account, so a wrong e-mail costs the
 * same time as a wrong password and the reply time does not reveal which addresses exist.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hashPassword("NoSuchAccount0");
  await verifyPassword(await dummyHash, password);
  return false;
}
