import { useEffect } from "react";
import { forgetUrlToken } from "./_url_token.ts";

/**
 * Renders nothing; once hydrated it takes `?token=` out of the address bar (issue 20), the way
 * the reset-password and join forms do. For server-rendered pages whose link carries a token
 * but that have no form of their own to do it, such as the emailed lead page `/lead/{id}`.
 */
export default function ForgetUrlToken() {
  useEffect(forgetUrlToken, []);
  return null;
}
