import Box from "@mui/material/Box";
import NotificationsIcon from "@mui/icons-material/Notifications";
import { useState } from "react";
import { ownLogoPath, useOrganisation } from "./organisation-context.js";

/**
 * The organisation's logo, or Sino's bell when it has none (or it fails to load). Decorative
 * (`alt=""`): the organisation's name is always written beside it.
 */
export function OrganisationMark({ size = 28 }: { size?: number }) {
  const { organisation } = useOrganisation();
  const logoUrl = ownLogoPath(organisation?.logoUrl ?? null);
  const [failed, setFailed] = useState<string | null>(null);
  if (logoUrl === null || failed === logoUrl) return <NotificationsIcon aria-hidden sx={{ fontSize: size }} />;
  return (
    <Box
      component="img"
      src={logoUrl}
      alt=""
      data-testid="organisation-logo"
      onError={() => setFailed(logoUrl)}
      sx={{ width: size, height: size, objectFit: "contain", borderRadius: 1, flexShrink: 0 }}
    />
  );
}
