import { useState } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import NotificationsIcon from "@mui/icons-material/Notifications";

export interface PreviewContent {
  title: string;
  body: string;
  icon: string;
  image: string;
  /** The site named in the notification's header, as browsers show the origin. */
  site: string;
}

/**
 * How the notification will look, drawn like Chrome's on a desktop: site line, title, body, icon
 * on the right, large image below. Every OS draws it differently; this is a faithful average.
 */
export function NotificationPreview({ title, body, icon, image, site }: PreviewContent) {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" component="h2">
        {t("dashboard.compose.preview.title")}
      </Typography>
      <Paper
        elevation={6}
        data-testid="notification-preview"
        role="img"
        aria-label={t("dashboard.compose.preview.label", { title: title.trim() || t("dashboard.compose.preview.placeholderTitle") })}
        sx={{ mt: 1, borderRadius: 2, overflow: "hidden", maxWidth: 380 }}
      >
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.75, px: 1.75, pt: 1.25, color: "text.secondary" }}>
          <NotificationsIcon sx={{ fontSize: 14, color: "primary.main" }} aria-hidden />
          <Typography variant="caption" noWrap>
            {t("dashboard.compose.preview.site", { site })}
          </Typography>
        </Box>
        <Box sx={{ display: "flex", gap: 1.5, px: 1.75, pt: 0.75, pb: 1.5 }}>
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography
              data-testid="preview-title"
              sx={{ fontWeight: 600, fontSize: "0.95rem", lineHeight: 1.35, wordBreak: "break-word", color: title.trim() ? "text.primary" : "text.secondary" }}
            >
              {title.trim() || t("dashboard.compose.preview.placeholderTitle")}
            </Typography>
            {body.trim() && (
              <Typography
                data-testid="preview-body"
                variant="body2"
                color="text.secondary"
                sx={{ mt: 0.25, whiteSpace: "pre-line", wordBreak: "break-word", display: "-webkit-box", WebkitLineClamp: 4, WebkitBoxOrient: "vertical", overflow: "hidden" }}
              >
                {body.trim()}
              </Typography>
            )}
          </Box>
          <PreviewImage key={`icon:${icon}`} src={icon.trim()} fallback="/icon.svg" sx={{ width: 48, height: 48, borderRadius: 1, flexShrink: 0, objectFit: "cover" }} />
        </Box>
        {image.trim() && <PreviewImage key={`image:${image}`} src={image.trim()} sx={{ width: "100%", aspectRatio: "2 / 1", objectFit: "cover", display: "block" }} />}
      </Paper>
      <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 1.5, maxWidth: 380 }}>
        {t("dashboard.compose.preview.disclaimer")}
      </Typography>
    </Box>
  );
}

/** An image that falls back (or disappears) when its URL does not load, instead of a broken icon. */
function PreviewImage({ src, fallback, sx }: { src: string; fallback?: string; sx: object }) {
  const [failed, setFailed] = useState(false);
  const url = src !== "" && !failed ? src : fallback;
  if (!url) return null;
  return <Box component="img" src={url} alt="" onError={() => setFailed(true)} sx={sx} />;
}
