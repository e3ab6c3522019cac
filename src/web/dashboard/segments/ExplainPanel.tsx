import { useId, useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import CheckCircle from "@mui/icons-material/CheckCircle";
import Cancel from "@mui/icons-material/Cancel";
import type { ExplainNode, ExplainSource, SegmentExplanation } from "../api/segments-api.js";
import { errorText } from "../api/error-text.js";
import { useDashboardServices } from "../services.js";
import { MONOSPACE } from "./SegmentEditor.js";

type TargetKind = "userId" | "subscriptionId";

/**
 * Explicar: for one person (user id) or one subscription, whether the segment holds, and for each
 * subscription the expression's tree with each condition marked ✓ atendida / ✗ não atendida (an
 * icon AND the words: never colour alone).
 */
export function ExplainPanel({ source }: { source: ExplainSource }) {
  const { t } = useTranslation();
  const { segments: api } = useDashboardServices();
  const id = useId();
  const [kind, setKind] = useState<TargetKind>("userId");
  const [target, setTarget] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ explanation: SegmentExplanation; kind: TargetKind; target: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = target.trim();
    if (value === "") return setError(t(kind === "userId" ? "segments.explain.userIdRequired" : "segments.explain.subscriptionIdRequired"));
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const explanation = await api.explain(source, kind === "userId" ? { userId: value } : { subscriptionId: value });
      setResult({ explanation, kind, target: value });
    } catch (failure) {
      setError(errorText(t, failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby={`${id}-title`} data-testid="explain-panel">
      <CardContent>
        <Typography id={`${id}-title`} variant="h6" component="h2">
          {t("segments.explain.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t("segments.explain.lead")}
        </Typography>
        <Stack component="form" noValidate spacing={2} onSubmit={(event) => void submit(event)} aria-label={t("segments.explain.title")}>
          <RadioGroup row aria-label={t("segments.explain.kind")} name="explainKind" value={kind} onChange={(event) => setKind(event.target.value === "subscriptionId" ? "subscriptionId" : "userId")}>
            <FormControlLabel value="userId" control={<Radio />} label={t("segments.explain.byUser")} />
            <FormControlLabel value="subscriptionId" control={<Radio />} label={t("segments.explain.bySubscription")} />
          </RadioGroup>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "flex-start" } }}>
            <TextField
              name="explainTarget"
              label={kind === "userId" ? t("segments.explain.userId") : t("segments.explain.subscriptionId")}
              value={target}
              onChange={(event) => {
                setTarget(event.target.value);
                setError(null);
              }}
              error={error !== null}
              helperText={error ?? " "}
              fullWidth
              slotProps={{ htmlInput: { spellCheck: false } }}
            />
            <Button type="submit" variant="outlined" loading={busy} sx={{ flexShrink: 0, mt: { sm: 1 } }}>
              {t("segments.explain.submit")}
            </Button>
          </Stack>
        </Stack>
        <Box aria-live="polite" data-testid="explain-result">
          {result && <Explanation {...result} />}
        </Box>
      </CardContent>
    </Card>
  );
}

function Explanation({ explanation, kind, target }: { explanation: SegmentExplanation; kind: TargetKind; target: string }) {
  const { t } = useTranslation();
  if (explanation.subscriptions.length === 0) {
    return (
      <Alert severity="info" data-testid="explain-summary">
        {t("segments.explain.noSubscriptions", { target })}
      </Alert>
    );
  }
  const summary =
    kind === "userId"
      ? t(explanation.matches ? "segments.explain.personIn" : "segments.explain.personOut", { target })
      : t(explanation.matches ? "segments.explain.subscriptionIn" : "segments.explain.subscriptionOut", { target });
  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      <Alert severity={explanation.matches ? "success" : "info"} data-testid="explain-summary">
        {summary}
      </Alert>
      {explanation.subscriptions.map((subscription) => (
        <Box key={subscription.id} data-testid="explain-subscription" data-matches={String(subscription.matches)}>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {t("segments.explain.subscription", { id: subscription.id })}
            </Typography>
            <Chip size="small" variant="outlined" color={subscription.matches ? "success" : "default"} label={subscription.matches ? t("segments.explain.in") : t("segments.explain.out")} />
          </Stack>
          {subscription.excluded && (
            <Alert severity="warning" sx={{ mb: 1 }}>
              {t("segments.explain.excluded")}
            </Alert>
          )}
          <Box component="ul" sx={{ m: 0, p: 0, listStyle: "none" }} aria-label={t("segments.explain.treeOf", { id: subscription.id })}>
            <ExplainItem node={subscription.tree} />
          </Box>
        </Box>
      ))}
    </Stack>
  );
}

/** One node: ✓/✗ (hidden from screen readers), the words "atendida"/"não atendida", and its text; children nested. */
function ExplainItem({ node }: { node: ExplainNode }) {
  const { t } = useTranslation();
  return (
    <Box component="li" data-testid="explain-node" data-held={String(node.held)} sx={{ my: 0.5 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
        {node.held ? <CheckCircle fontSize="small" color="success" aria-hidden sx={{ mt: 0.25 }} /> : <Cancel fontSize="small" color="error" aria-hidden sx={{ mt: 0.25 }} />}
        <Typography variant="body2" component="span" sx={{ fontWeight: 600, minWidth: 96, flexShrink: 0, color: node.held ? "success.dark" : "error.dark" }}>
          {node.held ? t("segments.explain.held") : t("segments.explain.notHeld")}
        </Typography>
        <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: "0.875rem", overflowWrap: "anywhere" }}>
          {node.text}
        </Box>
      </Stack>
      {node.children && node.children.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 3, listStyle: "none", borderLeft: 1, borderColor: "divider", ml: 1.25 }}>
          {node.children.map((child, index) => (
            <ExplainItem key={index} node={child} />
          ))}
        </Box>
      )}
    </Box>
  );
}
