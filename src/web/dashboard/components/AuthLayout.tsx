import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import NotificationsIcon from "@mui/icons-material/Notifications";

/** Sign-in and set-up: one centred card under the app's name, nothing else to get lost in. */
export function AuthLayout({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      sx={{ minHeight: "100vh", bgcolor: "background.default", display: "flex", flexDirection: "column", alignItems: "center", px: 2, py: { xs: 4, sm: 8 } }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, color: "primary.main", mb: 3 }}>
        <NotificationsIcon aria-hidden fontSize="large" />
        <Typography variant="h5" component="span" sx={{ fontWeight: 700 }}>
          {t("app.name")}
        </Typography>
        <Typography component="span" color="text.secondary" sx={{ ml: 0.5, alignSelf: "flex-end", mb: 0.25 }}>
          {t("dashboard.title")}
        </Typography>
      </Box>
      <Card variant="outlined" sx={{ width: "100%", maxWidth: 440 }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }} gutterBottom>
            {title}
          </Typography>
          {lead && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {lead}
            </Typography>
          )}
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
