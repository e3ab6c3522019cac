import { Navigate, useParams } from "react-router";
import { QUICK_PUBLISH_EVERYONE } from "../../shared/api/routes.js";

/**
 * `/p/<canal>` opened in a browser: scripts publish there (`curl -d "…" /p/obras`), and people who
 * follow the same address expect to read what was published, as on ntfy. It shows Avisos filtered
 * to that channel (`/p/todos`: all of them), at the address the filter keeps (`/?canal=obras`).
 */
export function ChannelAddress() {
  const { channel } = useParams();
  const everyone = channel === undefined || channel === QUICK_PUBLISH_EVERYONE;
  return <Navigate replace to={everyone ? "/" : `/?${new URLSearchParams({ canal: channel })}`} />;
}
