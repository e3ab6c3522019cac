import { useId } from "react";
import { useTranslation } from "react-i18next";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import ExpandMore from "@mui/icons-material/ExpandMore";
import { SEGMENT_TAG_KINDS } from "../../../shared/segments/tree.js";
import type { SegmentTagKinds } from "../../../shared/segments/tree.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { errorText } from "../api/error-text.js";
import { SEGMENT_TEXT_MAX, caretAt, segmentCountText } from "./segment-editor.js";
import type { SegmentDraft } from "./segment-editor.js";
import type { SegmentCountState } from "./useSegmentCount.js";

export const MONOSPACE = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

/** Expressions the help offers, each a click away from the field. */
const EXAMPLES = ["plano = premium e cidade = Campinas", "bairro in (Centro, Cambuí) e inscrito há menos de 7 dias", "idade >= 18 e não tem optout", "canal = obras ou (tem vip e visita há mais de 30 dias)"] as const;

type Translate = ReturnType<typeof useTranslation>["t"];

/**
 * The refusal as the operator reads it: the server's pt-BR message, which names the position
 * ("na posição 14: …"); when it does not, "Posição 14: " goes in front.
 */
export function refusalText(t: Translate, error: unknown): string {
  const text = errorText(t, error);
  if (!isDashboardApiError(error) || error.position === undefined || /posi[çc][ãa]o\s+\d/i.test(text)) return text;
  return t("segments.editor.errorAt", { position: error.position + 1, message: text });
}

/**
 * A segment's expression and its tag kinds, with the live count the parent keeps
 * (`useSegmentCount`): "N inscrições · M pessoas", the canonical text, channels that do not exist,
 * and a refusal pointing at its position (helper text, a caret under the line, the polite live region).
 */
export function SegmentEditor({
  value,
  onChange,
  count,
  autoFocus = false,
  showHelp = true,
  helpHeading = "h3",
}: {
  value: SegmentDraft;
  onChange: (value: SegmentDraft) => void;
  count: SegmentCountState;
  autoFocus?: boolean;
  showHelp?: boolean;
  /** The help's heading level: under the page's h1 (compose) or a dialog's h2 title. */
  helpHeading?: "h2" | "h3";
}) {
  const { t } = useTranslation();
  const id = useId();
  const statusId = `${id}-status`;
  const error = count.status === "error" ? count.error : null;
  const position = isDashboardApiError(error) ? error.position : undefined;
  // The caret is drawn under the text that was refused, not under what has been typed since.
  const caret = count.status === "error" && position !== undefined ? caretAt(count.draft.expression, position) : null;
  const pending = count.status === "waiting" || ((count.status === "ready" || count.status === "error") && count.pending);

  let status: string;
  if (count.status === "empty") status = t("segments.editor.empty");
  else if (count.status === "waiting") status = t("segments.editor.counting");
  else if (count.status === "ready") status = segmentCountText(t, count.count);
  else status = refusalText(t, count.error);

  return (
    <Stack spacing={1.5} data-testid="segment-editor">
      <TextField
        name="expression"
        label={t("segments.editor.expression")}
        value={value.expression}
        onChange={(event) => onChange({ ...value, expression: event.target.value })}
        multiline
        minRows={2}
        maxRows={10}
        fullWidth
        required
        autoFocus={autoFocus}
        error={error !== null}
        helperText={error !== null ? refusalText(t, error) : t("segments.editor.hint")}
        slotProps={{
          htmlInput: { spellCheck: false, autoCapitalize: "off", autoCorrect: "off", maxLength: SEGMENT_TEXT_MAX, sx: { fontFamily: MONOSPACE } },
        }}
      />
      {caret && (
        // Seen, not read: the helper text and the live region already say the position in words.
        <Box
          component="pre"
          aria-hidden
          data-testid="segment-error-caret"
          sx={{ m: 0, mt: -0.5, px: 1.75, py: 0.5, fontFamily: MONOSPACE, fontSize: "0.875rem", color: "error.main", overflowX: "auto", bgcolor: "action.hover", borderRadius: 1 }}
        >
          {`${caret.line}\n${caret.caret}`}
        </Box>
      )}
      <TextField
        select
        name="tagKinds"
        label={t("segments.editor.tagKinds")}
        value={value.tagKinds}
        onChange={(event) => onChange({ ...value, tagKinds: event.target.value as SegmentTagKinds })}
        helperText={t(`segments.editor.tagKindsHints.${value.tagKinds}`)}
        fullWidth
      >
        {SEGMENT_TAG_KINDS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {t(`segments.editor.tagKindsOptions.${kind}`)}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", minHeight: 28 }}>
        <Typography
          id={statusId}
          role="status"
          aria-live="polite"
          data-testid="segment-count"
          data-status={count.status}
          sx={{ fontWeight: count.status === "ready" ? 600 : 400, color: count.status === "error" ? "error.main" : count.status === "ready" ? "text.primary" : "text.secondary" }}
        >
          {status}
        </Typography>
        {pending && <CircularProgress size={16} aria-label={t("segments.editor.counting")} />}
      </Stack>
      {count.status === "ready" && (
        <Typography variant="body2" color="text.secondary" data-testid="segment-canonical" sx={{ overflowWrap: "anywhere" }}>
          {t("segments.editor.canonical")}{" "}
          <Box component="code" sx={{ fontFamily: MONOSPACE, color: "text.primary" }}>
            {count.count.expression}
          </Box>
        </Typography>
      )}
      {count.status === "ready" && count.count.unknownChannels.length > 0 && (
        <Alert severity="warning" data-testid="segment-unknown-channels">
          {t("segments.editor.unknownChannels", { count: count.count.unknownChannels.length, channels: count.count.unknownChannels.join(", ") })}
        </Alert>
      )}
      {showHelp && <SegmentHelp heading={helpHeading} onExample={(expression) => onChange({ ...value, expression })} />}
    </Stack>
  );
}

/** A short guide to the language, with examples to start from, and where the full one is. */
function SegmentHelp({ heading, onExample }: { heading: "h2" | "h3"; onExample: (expression: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Accordion variant="outlined" disableGutters slotProps={{ heading: { component: heading } }}>
      <AccordionSummary expandIcon={<ExpandMore />} aria-controls={`${id}-help`} id={`${id}-help-summary`}>
        <Typography>{t("segments.help.title")}</Typography>
      </AccordionSummary>
      <AccordionDetails id={`${id}-help`}>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {t("segments.help.intro")}
        </Typography>
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {EXAMPLES.map((example) => (
            <li key={example}>
              <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: "0.875rem" }}>
                {example}
              </Box>{" "}
              <Button size="small" onClick={() => onExample(example)} aria-label={t("segments.help.useNamed", { example })}>
                {t("segments.help.use")}
              </Button>
            </li>
          ))}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t("segments.help.more")}
        </Typography>
      </AccordionDetails>
    </Accordion>
  );
}
