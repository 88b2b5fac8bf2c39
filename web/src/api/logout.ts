import { apiRequest } from "./client.ts";

/** POST /logout revokes the current session on the server (PRODUCT.md D11). */
export async function logout(): Promise<void> {
  await apiRequest("/logout", { method: "POST" });
}
