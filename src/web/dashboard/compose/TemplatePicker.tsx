import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { Template } from "../api/templates-api.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";

/**
 * "Usar modelo": fills the form from a saved template (its content and, when it keeps one, its
 * audience). Hidden while there is no template; `value` is the template the form came from.
 */
export function TemplatePicker({ value, onPick }: { value: string; onPick: (template: Template) => void }) {
  const { t } = useTranslation();
  const { templates: api } = useDashboardServices();
  const { resource } = useResource(useCallback(() => api.listTemplates(), [api]));
  const list = resource.status === "ready" ? resource.data : [];
  if (list.length === 0) return null;
  return (
    <TextField
      select
      name="template"
      label={t("templates.compose.use")}
      value={list.some((template) => template.id === value) ? value : ""}
      onChange={(event) => {
        const chosen = list.find((template) => template.id === event.target.value);
        if (chosen !== undefined) onPick(chosen);
      }}
      helperText={t("templates.compose.useHint")}
      fullWidth
    >
      {list.map((template) => (
        <MenuItem key={template.id} value={template.id}>
          {template.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
