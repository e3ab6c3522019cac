import { useState } from "react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import NotificationsIcon from "@mui/icons-material/Notifications";
import ExpandMore from "@mui/icons-material/ExpandMore";
import { PREVIEW_PLATFORMS, previewParts } from "./preview-platforms.js";
import type { PreviewPlatform } from "./preview-platforms.js";

export interface PreviewContent {
  title: string;
  body: string;
  icon: string;
  image: string;
  /** The small monochrome badge (Android's status bar and header). */
  badge: string;
  /** The action buttons' labels, in order (empty ones left out). */
  actions: readonly string[];
  /** The app badge count (navigator.setAppBadge), or null. */
  appBadge: number | null;
  /** The site named in the notification's header, as browsers show the origin. */
  site: string;
  /** The tab shown first (Android unless told). */
  defaultPlatform?: PreviewPlatform;
}

/**
 * How the notification will look on each platform, in tabs: what each one draws (and leaves out)
 * comes from `previewParts`, so the drawing and its tests agree. Drawn with theme colours only, so
 * it reads in dark mode too; a picture of a notification, not a copy of each OS's pixels.
 */
export function NotificationPreview(content: PreviewContent) {
  const { t } = useTranslation();
  const [platform, setPlatform] = useState<PreviewPlatform>(content.defaultPlatform ?? "android");
  const title = content.title.trim() || t("dashboard.compose.preview.placeholderTitle");
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" component="h2" id="preview-heading">
        {t("dashboard.compose.preview.title")}
      </Typography>
      <Tabs
        value={platform}
        onChange={(_, value: PreviewPlatform) => setPlatform(value)}
        aria-label={t("dashboard.compose.full.preview.platforms")}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ minHeight: 40, maxWidth: 380 }}
      >
        {PREVIEW_PLATFORMS.map((value) => (
          <Tab key={value} value={value} label={t(`dashboard.compose.full.preview.platform.${value}`)} id={`preview-tab-${value}`} aria-controls={`preview-panel-${value}`} sx={{ minHeight: 40, minWidth: 0, px: 1.5 }} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`preview-panel-${platform}`} aria-labelledby={`preview-tab-${platform}`} data-testid={`preview-panel-${platform}`} sx={{ pt: 1.5 }}>
        <Paper
          elevation={6}
          data-testid="notification-preview"
          data-platform={platform}
          role="img"
          aria-label={t("dashboard.compose.preview.label", { title })}
          sx={{ borderRadius: platform === "iphone" ? 4 : platform === "windows" ? 1 : 3, overflow: "hidden", maxWidth: 380 }}
        >
          <PlatformNotification platform={platform} content={content} title={title} />
        </Paper>
        <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 1.5, maxWidth: 380 }} data-testid="preview-platform-note">
          {t(`dashboard.compose.full.preview.note.${platform}`)}
        </Typography>
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 1, maxWidth: 380 }}>
        {t("dashboard.compose.preview.disclaimer")}
      </Typography>
    </Box>
  );
}

function PlatformNotification({ platform, content, title }: { platform: PreviewPlatform; content: PreviewContent; title: string }) {
  const { t } = useTranslation();
  const parts = previewParts(platform, content);
  const titleText = (
    <Typography
      data-testid="preview-title"
      sx={{ fontWeight: 600, fontSize: "0.95rem", lineHeight: 1.35, wordBreak: "break-word", color: content.title.trim() ? "text.primary" : "text.secondary" }}
    >
      {title}
    </Typography>
  );
  const bodyText = content.body.trim() !== "" && (
    <Typography
      data-testid="preview-body"
      variant="body2"
      color="text.secondary"
      sx={{ mt: 0.25, whiteSpace: "pre-line", wordBreak: "break-word", display: "-webkit-box", WebkitLineClamp: parts.bodyLines, WebkitBoxOrient: "vertical", overflow: "hidden" }}
    >
      {content.body.trim()}
    </Typography>
  );
  const icon = (size: number, round = false) => (
    <PreviewImage key={`icon:${content.icon}`} testId="preview-icon" src={content.icon.trim()} fallback="/icon.svg" sx={{ width: size, height: size, borderRadius: round ? "50%" : 1, flexShrink: 0, objectFit: "cover" }} />
  );
  const image = parts.image && <PreviewImage key={`image:${content.image}`} testId="preview-image" src={content.image.trim()} sx={{ width: "100%", aspectRatio: "2 / 1", objectFit: "cover", display: "block" }} />;
  const site = (
    <Typography variant="caption" noWrap color="text.secondary">
      {t("dashboard.compose.preview.site", { site: content.site })}
    </Typography>
  );
  const badge = parts.badge ? (
    <PreviewImage key={`badge:${content.badge}`} testId="preview-badge" src={content.badge.trim()} sx={{ width: 14, height: 14, flexShrink: 0, objectFit: "contain" }} />
  ) : (
    <NotificationsIcon sx={{ fontSize: 14, color: "primary.main" }} aria-hidden />
  );

  switch (platform) {
    case "android":
      return (
        <>
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.75, px: 1.75, pt: 1.25 }}>
            {badge}
            {site}
          </Box>
          <Box sx={{ display: "flex", gap: 1.5, px: 1.75, pt: 0.75, pb: 1.5 }}>
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              {titleText}
              {bodyText}
            </Box>
            {icon(44)}
          </Box>
          {image}
          <PreviewActions labels={parts.actions} layout="text" />
        </>
      );
    case "windows":
      return (
        <Box sx={{ p: 1.5 }}>
          <Box sx={{ display: "flex", gap: 1.5 }}>
            {icon(48)}
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              {titleText}
              {bodyText}
              {site}
            </Box>
          </Box>
          {image && <Box sx={{ mt: 1.5, borderRadius: 1, overflow: "hidden" }}>{image}</Box>}
          <PreviewActions labels={parts.actions} layout="buttons" />
        </Box>
      );
    case "macos":
      return (
        <Box sx={{ display: "flex", gap: 1.25, p: 1.5, alignItems: "flex-start" }}>
          <NotificationsIcon sx={{ fontSize: 32, color: "primary.main", flexShrink: 0 }} aria-hidden />
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            {titleText}
            {site}
            {bodyText}
            <PreviewActions labels={parts.actions} layout="menu" />
          </Box>
          {icon(40)}
        </Box>
      );
    case "iphone":
      return (
        <Box sx={{ display: "flex", gap: 1.25, p: 1.5, alignItems: "flex-start", bgcolor: "action.hover" }}>
          <Box sx={{ position: "relative", flexShrink: 0 }}>
            {icon(38)}
            {parts.appBadge !== null && (
              <Box data-testid="preview-app-badge" sx={{ position: "absolute", top: -6, right: -8, minWidth: 18, height: 18, px: 0.5, borderRadius: 9, bgcolor: "error.main", color: "error.contrastText", fontSize: 11, fontWeight: 700, display: "flex", alignItems: "center", justifyContent: "center" }}>
                {parts.appBadge}
              </Box>
            )}
          </Box>
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Box sx={{ display: "flex", gap: 1, alignItems: "baseline" }}>
              <Box sx={{ flexGrow: 1, minWidth: 0 }}>{titleText}</Box>
              <Typography variant="caption" color="text.secondary">
                {t("dashboard.compose.full.preview.now")}
              </Typography>
            </Box>
            {bodyText}
          </Box>
        </Box>
      );
  }
}

/** The buttons as each platform draws them: Android's text buttons, Windows' full-width ones, macOS's "Opções" menu. */
function PreviewActions({ labels, layout }: { labels: readonly string[]; layout: "text" | "buttons" | "menu" }) {
  const { t } = useTranslation();
  if (labels.length === 0) return null;
  const chip = (label: ReactNode, index: number, sx: object) => (
    <Box key={index} data-testid="preview-action" sx={{ fontSize: "0.8125rem", fontWeight: 500, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", ...sx }}>
      {label}
    </Box>
  );
  if (layout === "menu") {
    return (
      <Box sx={{ mt: 1, display: "inline-flex", flexDirection: "column", border: 1, borderColor: "divider", borderRadius: 1, overflow: "hidden", maxWidth: "100%" }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, px: 1, py: 0.25, bgcolor: "action.hover", fontSize: "0.8125rem" }} data-testid="preview-options">
          {t("dashboard.compose.full.preview.options")}
          <ExpandMore sx={{ fontSize: 16 }} aria-hidden />
        </Box>
        {labels.map((label, index) => chip(label, index, { px: 1, py: 0.25 }))}
      </Box>
    );
  }
  if (layout === "buttons") {
    return <Box sx={{ display: "flex", gap: 1, mt: 1.5 }}>{labels.map((label, index) => chip(label, index, { flex: 1, textAlign: "center", py: 0.75, borderRadius: 1, bgcolor: "action.selected", color: "text.primary" }))}</Box>;
  }
  return <Box sx={{ display: "flex", gap: 2.5, px: 1.75, py: 1, borderTop: 1, borderColor: "divider" }}>{labels.map((label, index) => chip(label, index, { color: "primary.main" }))}</Box>;
}

/** An image that falls back (or disappears) when its URL does not load, instead of a broken icon. */
function PreviewImage({ src, fallback, sx, testId }: { src: string; fallback?: string; sx: object; testId: string }) {
  const [failed, setFailed] = useState(false);
  const url = src !== "" && !failed ? src : fallback;
  if (!url) return null;
  return <Box component="img" src={url} alt="" data-testid={testId} onError={() => setFailed(true)} sx={sx} />;
}
