import { useState } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import NotificationsIcon from "@mui/icons-material/Notifications";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import type { Notice } from "../../shared/api/notices.js";
import { formatFullDate, formatRelativeTime } from "./relative-time.js";
import { safeHttpUrl } from "./safe-link.js";

/**
 * One notice. Every text is rendered as React text (escaped): a title like `<img onerror=…>` shows
 * as those characters, never as markup. Links and images only when http(s).
 */
export function NoticeCard({ notice, now, origin, fresh }: { notice: Notice; now: number; origin: string; fresh: boolean }) {
  const { t } = useTranslation();
  const link = safeHttpUrl(notice.url, origin);
  const icon = safeHttpUrl(notice.icon, origin);
  const image = safeHttpUrl(notice.image, origin);
  // A dead icon or image URL must not leave the browser's broken-image glyph on the public page:
  // the icon falls back to the bell, a failed image is left out.
  const [iconFailed, setIconFailed] = useState(false);
  const [imageFailed, setImageFailed] = useState(false);
  return (
    <Card
      component="article"
      variant="outlined"
      data-testid="notice"
      data-id={notice.id}
      aria-labelledby={`notice-${notice.id}-title`}
      sx={{ borderColor: fresh ? "primary.light" : "divider", transition: "border-color 2s" }}
    >
      {image && !imageFailed && (
        <Box
          component="img"
          src={image}
          alt=""
          loading="lazy"
          onError={() => setImageFailed(true)}
          data-testid="notice-image"
          sx={{ display: "block", width: "100%", maxHeight: 280, objectFit: "cover" }}
        />
      )}
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: "flex-start" }}>
          {icon && !iconFailed && (
            <Box
              component="img"
              src={icon}
              alt=""
              loading="lazy"
              onError={() => setIconFailed(true)}
              data-testid="notice-icon"
              sx={{ width: 48, height: 48, borderRadius: 1, flexShrink: 0, objectFit: "cover" }}
            />
          )}
          {icon && iconFailed && (
            <Box
              data-testid="notice-icon-fallback"
              aria-hidden
              sx={{ width: 48, height: 48, borderRadius: 1, flexShrink: 0, display: "grid", placeItems: "center", bgcolor: "action.hover", color: "primary.main" }}
            >
              <NotificationsIcon />
            </Box>
          )}
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <Typography id={`notice-${notice.id}-title`} variant="h6" component="h2" sx={{ fontSize: "1.1rem", fontWeight: 600, overflowWrap: "anywhere" }}>
              {notice.title}
            </Typography>
            <Typography
              variant="body2"
              color="text.secondary"
              component="time"
              dateTime={notice.publishedAt}
              title={formatFullDate(notice.publishedAt)}
              data-testid="notice-time"
            >
              {formatRelativeTime(notice.publishedAt, now, t("notices.justNow"))}
            </Typography>
            {notice.body && (
              <Typography sx={{ mt: 1, whiteSpace: "pre-line", overflowWrap: "anywhere" }} data-testid="notice-body">
                {notice.body}
              </Typography>
            )}
            <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1.5, flexWrap: "wrap", alignItems: "center" }}>
              {notice.channels.length === 0 ? (
                <Chip size="small" variant="outlined" label={t("notices.everyone")} />
              ) : (
                notice.channels.map((channel) => <Chip key={channel.slug} size="small" label={channel.name} />)
              )}
              {link && (
                <Link href={link} target="_blank" rel="noopener noreferrer" sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, ml: "auto !important" }}>
                  {t("notices.openLink")}
                  <OpenInNewIcon fontSize="inherit" aria-hidden />
                </Link>
              )}
            </Stack>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
