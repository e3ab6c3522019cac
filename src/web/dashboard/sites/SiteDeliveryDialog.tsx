import { useState } from "react";
import { useTranslation } from "react-i18next";
import Dialog from "@mui/material/Dialog";
import DialogContentText from "@mui/material/DialogContentText";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { MAX_FREQUENCY_CAP, isTimeRange, type DeliveryDefaults } from "../../../shared/api/engagement.js";
import type { Site, UpdateSiteRequest } from "../../../shared/api/sites.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { errorText } from "../api/error-text.js";
import { DialogForm } from "../components/FormDialog.js";
import { FormError } from "../components/FormFields.js";

export interface SiteDeliveryDialogProps {
  readonly site: Site | null;
  readonly defaults: DeliveryDefaults | null;
  readonly save: (site: Site, change: UpdateSiteRequest) => Promise<void>;
  readonly onClose: () => void;
}

/**
 * A site's frequency cap, send window and time zone (admins): an empty field means the server's
 * default, which each field's hint names. Checked here with the server's rules before it is sent.
 */
export function SiteDeliveryDialog({ site, defaults, save, onClose }: SiteDeliveryDialogProps) {
  return (
    <Dialog open={site !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="site-delivery-title">
      {site !== null && defaults !== null && <DeliveryForm site={site} defaults={defaults} save={save} onClose={onClose} />}
    </Dialog>
  );
}

type Field = "frequencyCap" | "sendWindow" | "timeZone";

function DeliveryForm({ site, defaults, save, onClose }: { site: Site; defaults: DeliveryDefaults; save: SiteDeliveryDialogProps["save"]; onClose: () => void }) {
  const { t } = useTranslation();
  const [cap, setCap] = useState(site.delivery.frequencyCap === null ? "" : String(site.delivery.frequencyCap));
  const [window, setWindow] = useState(site.delivery.sendWindow ?? "");
  const [zone, setZone] = useState(site.delivery.timeZone ?? "");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setFormError(null);
    const found: Partial<Record<Field, string>> = {};
    const capValue = cap.trim() === "" ? null : Number(cap);
    if (capValue !== null && (!Number.isInteger(capValue) || capValue < 1 || capValue > MAX_FREQUENCY_CAP)) found.frequencyCap = t("errors.site_frequency_cap_invalid");
    const windowValue = window.trim() === "" ? null : window.trim();
    if (windowValue !== null && !isTimeRange(windowValue)) found.sendWindow = t("errors.site_send_window_invalid");
    const zoneValue = zone.trim() === "" ? null : zone.trim();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await save(site, { frequencyCap: capValue, sendWindow: windowValue, timeZone: zoneValue });
      onClose();
    } catch (error) {
      setBusy(false);
      const field = isDashboardApiError(error) ? error.field : undefined;
      if (field === "frequencyCap" || field === "sendWindow" || field === "timeZone") setErrors({ [field]: errorText(t, error) });
      else setFormError(errorText(t, error));
    }
  };

  return (
    <DialogForm titleId="site-delivery-title" title={t("engagement.delivery.title", { origin: site.origin })} busy={busy} submitLabel={t("engagement.delivery.save")} onSubmit={submit} onCancel={onClose}>
      <DialogContentText sx={{ mb: 2 }}>{t("engagement.delivery.intro")}</DialogContentText>
      <Stack spacing={2}>
        <TextField
          label={t("engagement.delivery.cap")}
          value={cap}
          autoFocus
          inputMode="numeric"
          onChange={(event) => setCap(event.target.value)}
          error={errors.frequencyCap !== undefined}
          helperText={errors.frequencyCap ?? t("engagement.delivery.capHint", { value: defaults.frequencyCap })}
          slotProps={{ htmlInput: { "data-testid": "site-delivery-cap" } }}
        />
        <TextField
          label={t("engagement.delivery.window")}
          value={window}
          placeholder="08:00-21:00"
          onChange={(event) => setWindow(event.target.value)}
          error={errors.sendWindow !== undefined}
          helperText={errors.sendWindow ?? t("engagement.delivery.windowHint", { value: defaults.sendWindow })}
          slotProps={{ htmlInput: { "data-testid": "site-delivery-window", spellCheck: false } }}
        />
        <TextField
          label={t("engagement.delivery.zone")}
          value={zone}
          placeholder="America/Sao_Paulo"
          onChange={(event) => setZone(event.target.value)}
          error={errors.timeZone !== undefined}
          helperText={errors.timeZone ?? t("engagement.delivery.zoneHint", { value: defaults.timeZone })}
          slotProps={{ htmlInput: { "data-testid": "site-delivery-zone", spellCheck: false, autoCapitalize: "none" } }}
        />
      </Stack>
      <FormError error={formError} sx={{ mt: 2 }} />
    </DialogForm>
  );
}
