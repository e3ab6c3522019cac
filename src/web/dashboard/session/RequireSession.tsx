import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import { errorText } from "../api/error-text.js";
import { FullPageProgress } from "../components/FullPageProgress.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { useSession } from "./session-context.js";

/** Where sign-in sends the operator back to, carried in the navigation state. */
export interface ReturnState {
  from?: string;
}

/** Renders its children only for a signed-in operator; others go to sign-in, and come back after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { state, reload } = useSession();
  const location = useLocation();
  switch (state.status) {
    case "loading":
      return <FullPageProgress />;
    case "signed-out": {
      const returnState: ReturnState = { from: location.pathname + location.search };
      return <Navigate to={DASHBOARD_PATHS.signIn} replace state={returnState} />;
    }
    case "unreachable":
      return (
        <Container maxWidth="sm" sx={{ py: 6 }}>
          <Alert
            severity="error"
            role="alert"
            action={
              <Button color="inherit" size="small" onClick={reload}>
                {t("dashboard.common.retry")}
              </Button>
            }
          >
            {t("dashboard.session.unreachable", { reason: errorText(t, state.error) })}
          </Alert>
        </Container>
      );
    case "signed-in":
      // A temporary password opens nothing but its own change (the server refuses the rest with
      // password_change_required): go there first, and come back after.
      if (state.user.mustChangePassword && location.pathname !== DASHBOARD_PATHS.password) {
        const returnState: ReturnState = { from: location.pathname + location.search };
        return <Navigate to={DASHBOARD_PATHS.password} replace state={returnState} />;
      }
      return children;
  }
}
