import { useCallback, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import InputAdornment from "@mui/material/InputAdornment";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { ThemeProvider } from "@mui/material/styles";
import NotificationsIcon from "@mui/icons-material/Notifications";
import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import {
  ACCENT_COLOR_PATTERN,
  ORGANISATION_LOGO_MAX_BYTES,
  ORGANISATION_LOGO_TYPES,
  type Organisation,
  type UpdateOrganisationRequest,
} from "../../../shared/api/organisation.js";
import { createSinoTheme, DEFAULT_ACCENT } from "../../theme.js";
import { useColorMode } from "../../color-mode/ColorModeProvider.js";
import { ownLogoPath, useOrganisation } from "../../organisation/organisation-context.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { errorText } from "../api/error-text.js";
import { PageHeading } from "../components/PageHeading.js";
import { ResourceView } from "../components/ResourceView.js";
import { useNotice } from "../components/useNotice.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";

/** Sino's own colour, shown while the organisation sets none. */

/** Organização (admins): the name, accent colour and logo visitors see. */
export function OrganisationPage() {
  const { t } = useTranslation();
  const { organisation: api } = useDashboardServices();
  const { resource, reload } = useResource(useCallback(() => api.getOrganisation(), [api]));
  return (
    <>
      <PageHeading title={t("dashboard.organisation.title")} subtitle={t("dashboard.organisation.subtitle")} />
      <ResourceView resource={resource} onRetry={reload} isEmpty={() => false} empty={null}>
        {(organisation) => <OrganisationForm key={organisation.updatedAt ?? "unset"} initial={organisation} />}
      </ResourceView>
    </>
  );
}

/** A logo chosen in this form and not yet saved. */
interface PendingLogo {
  readonly name: string;
  readonly data: string;
  readonly previewUrl: string;
}

function OrganisationForm({ initial }: { initial: Organisation }) {
  const { t } = useTranslation();
  const { organisation: api } = useDashboardServices();
  const shared = useOrganisation();
  const [notice, showNotice] = useNotice();
  const [stored, setStored] = useState(initial);
  const [name, setName] = useState(initial.name ?? "");
  const [accent, setAccent] = useState(initial.accentColor ?? "");
  // undefined: keep the stored one; null: remove it; a PendingLogo: upload it.
  const [logo, setLogo] = useState<PendingLogo | null | undefined>(undefined);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [error, setError] = useState<{ text: string; field: string | undefined } | null>(null);
  const [saving, setSaving] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const accentValid = accent === "" || ACCENT_COLOR_PATTERN.test(accent);
  const shownLogo = logo === undefined ? ownLogoPath(stored.logoUrl) : logo === null ? null : logo.previewUrl;
  const previewAccent = accentValid && accent !== "" ? accent.toLowerCase() : null;

  async function choose(file: File | undefined) {
    setLogoError(null);
    if (file === undefined) return;
    if (file.size > ORGANISATION_LOGO_MAX_BYTES) {
      setLogoError(t("dashboard.organisation.logoTooLarge", { size: Math.ceil(file.size / 1024) }));
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const data = btoa(binary);
    // A data: URL, not a blob: one, which the Content-Security-Policy (img-src) does not allow.
    setLogo({ name: file.name, data, previewUrl: `data:${file.type || "image/png"};base64,${data}` });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const request: UpdateOrganisationRequest = {
      name: name.trim() === "" ? null : name.trim(),
      accentColor: accent === "" ? null : accent,
      ...(logo === undefined ? {} : { logo: logo === null ? null : { data: logo.data } }),
    };
    setSaving(true);
    try {
      const saved = await api.updateOrganisation(request);
      shared.set(saved);
      setStored(saved);
      setLogo(undefined);
      showNotice({ severity: "success", text: t("dashboard.organisation.saved") });
    } catch (failure) {
      setError({ text: errorText(t, failure), field: isDashboardApiError(failure) ? failure.field : undefined });
    } finally {
      setSaving(false);
    }
  }

  const fieldError = (field: string) => (error !== null && error.field === field ? error.text : null);
  return (
    <Card variant="outlined" component="form" noValidate onSubmit={(event: FormEvent) => void submit(event)} aria-label={t("dashboard.organisation.title")}>
      <CardContent>
        <Stack spacing={3} sx={{ maxWidth: 640 }}>
          <TextField
            label={t("dashboard.organisation.name")}
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 60 } }}
            error={fieldError("name") !== null}
            helperText={fieldError("name") ?? t("dashboard.organisation.nameHelp")}
          />
          <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "flex-start" } }}>
            <TextField
              label={t("dashboard.organisation.accent")}
              value={accent}
              placeholder={DEFAULT_ACCENT}
              onChange={(event) => setAccent(event.target.value.trim())}
              error={!accentValid || fieldError("accentColor") !== null}
              helperText={fieldError("accentColor") ?? t("dashboard.organisation.accentHelp")}
              sx={{ flexGrow: 1 }}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <Box
                        component="input"
                        type="color"
                        aria-label={t("dashboard.organisation.accentPicker")}
                        value={previewAccent ?? DEFAULT_ACCENT}
                        onChange={(event) => setAccent((event.target as HTMLInputElement).value)}
                        sx={{ width: 32, height: 32, p: 0, border: 0, bgcolor: "transparent", cursor: "pointer" }}
                      />
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Button onClick={() => setAccent("")} disabled={accent === ""} sx={{ mt: { sm: 1 } }}>
              {t("dashboard.organisation.accentDefault")}
            </Button>
          </Stack>
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {t("dashboard.organisation.logo")}
            </Typography>
            <Typography variant="body2" color="text.secondary" id="organisation-logo-help" sx={{ mb: 1.5 }}>
              {t("dashboard.organisation.logoHelp")}
            </Typography>
            <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap" }} useFlexGap>
              {shownLogo === null ? (
                <Typography variant="body2" data-testid="organisation-logo-none">
                  {t("dashboard.organisation.logoNone")}
                </Typography>
              ) : (
                <Box
                  component="img"
                  src={shownLogo}
                  alt={t("dashboard.organisation.logoAlt")}
                  data-testid="organisation-logo-current"
                  sx={{ width: 72, height: 72, objectFit: "contain", borderRadius: 1, border: 1, borderColor: "divider" }}
                />
              )}
              {/* The file input stays hidden (a native one is unlabelled and unstylable); the button opens it. */}
              <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()} aria-describedby="organisation-logo-help">
                {t("dashboard.organisation.logoChoose")}
              </Button>
              <input
                ref={fileInput}
                type="file"
                hidden
                accept={ORGANISATION_LOGO_TYPES.join(",")}
                data-testid="organisation-logo-input"
                onChange={(event) => void choose(event.target.files?.[0])}
              />
              {shownLogo !== null && (
                <Button color="error" onClick={() => setLogo(null)}>
                  {t("dashboard.organisation.logoRemove")}
                </Button>
              )}
            </Stack>
            {logo != null && (
              <Typography variant="body2" role="status" sx={{ mt: 1 }}>
                {t("dashboard.organisation.logoPending", { name: logo.name })}
              </Typography>
            )}
            {(logoError ?? fieldError("logo.data")) !== null && (
              <Typography variant="body2" color="error" role="alert" sx={{ mt: 1 }}>
                {logoError ?? fieldError("logo.data")}
              </Typography>
            )}
          </Box>
          <Preview name={name.trim() === "" ? t("app.name") : name.trim()} logoUrl={shownLogo} accent={previewAccent} />
          {error !== null && error.field === undefined && (
            <Alert severity="error" role="alert">
              {error.text}
            </Alert>
          )}
          <Box>
            <Button type="submit" variant="contained" loading={saving} disabled={!accentValid || logoError !== null}>
              {t("dashboard.organisation.save")}
            </Button>
          </Box>
        </Stack>
      </CardContent>
      {notice}
    </Card>
  );
}

/** The public page's bar as visitors will see it, in the chosen colour. */
function Preview({ name, logoUrl, accent }: { name: string; logoUrl: string | null; accent: string | null }) {
  const { t } = useTranslation();
  const { mode } = useColorMode();
  return (
    <section aria-labelledby="organisation-preview-title">
      <Typography id="organisation-preview-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {t("dashboard.organisation.preview")}
      </Typography>
      <ThemeProvider theme={createSinoTheme({ mode, accent })}>
        <Stack
          direction="row"
          spacing={1.5}
          data-testid="organisation-preview"
          sx={{ alignItems: "center", p: 2, border: 1, borderColor: "divider", borderRadius: 1, bgcolor: "background.paper", color: "primary.main" }}
        >
          {logoUrl === null ? (
            <NotificationsIcon aria-hidden />
          ) : (
            <Box component="img" src={logoUrl} alt="" sx={{ width: 28, height: 28, objectFit: "contain", borderRadius: 1 }} />
          )}
          <Typography variant="h6" component="span" sx={{ fontWeight: 700, flexGrow: 1 }}>
            {name}
          </Typography>
          <Box component="span" sx={{ bgcolor: "primary.main", color: "primary.contrastText", px: 1.5, py: 0.5, borderRadius: 1, fontWeight: 600, fontSize: 14 }}>
            {t("app.home.enableButton")}
          </Box>
        </Stack>
      </ThemeProvider>
    </section>
  );
}
