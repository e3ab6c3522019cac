import type { Principal } from "../../auth/principal.js";
import { roleOf } from "../../auth/principal.js";
import { apiError } from "../../errors.js";

/**
 * gates: `exempt: true` skips frequency caps, send windows and sleeping subscribers, a
 * breaking-news override only an admin (a signed-in admin or an `admin` token) may make: 403
 * `exempt_admin_only` for anyone else — also for editing a scheduled send that is exempt.
 */
export function checkExempt(principal: Principal, exempt: boolean | undefined): void {
  if (exempt === true && roleOf(principal) !== "admin") throw apiError("exempt_admin_only", "exempt");
}
