import { useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import Switch from "@mui/material/Switch";
import FormLabel from "@mui/material/FormLabel";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { Theme } from "@mui/material/styles";
import SendOutlined from "@mui/icons-material/SendOutlined";
import ScheduleSend from "@mui/icons-material/ScheduleSend";
import PhonelinkRing from "@mui/icons-material/PhonelinkRing";
import { AUDIENCE_SIZE_MAX_USERS, NOTIFICATION_CATEGORIES, NOTIFICATION_URGENCIES } from "../../../shared/api/notifications.js";
import type { NotificationAudience, NotificationCategory, NotificationUrgency } from "../../../shared/api/notifications.js";
import { useCurrentUser } from "../session/session-context.js";
import { useThisBrowserPush } from "../../hooks/useThisBrowserPush.js";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { PageHeading } from "../components/PageHeading.js";
import { formatDateTime, formatNumber, timeZoneName } from "../format.js";
import { notificationPagePath } from "../paths.js";
import { AudienceSelect } from "../channels/AudienceSelect.js";
import { SiteSelect } from "../sites/SiteSelect.js";
import { useDashboardServices } from "../services.js";
import type { AudienceSize } from "../../../shared/api/notifications.js";
import { COMPOSE_LIMITS, TTL_CHOICES, filledActions, initialComposeValues, isAllowedLink, parseAppBadge, toNotificationRequest, validateCompose } from "./compose-form.js";
import type { ComposeErrors, ComposeField } from "./compose-form.js";
import { ActionButtonsFields } from "./ActionButtonsFields.js";
import { AdvancedFields } from "./AdvancedFields.js";
import { PayloadBudgetIndicator } from "./PayloadBudgetIndicator.js";
import { composeBudget } from "./compose-budget.js";
import { NotificationPreview } from "./NotificationPreview.js";
import { DeliveryRulesFields, type DeliveryRulesValue } from "./DeliveryRulesFields.js";
import { deliveryRulesText } from "./delivery-rules-text.js";
import { useImageProbe } from "./useImageProbe.js";
import { SegmentAudience } from "./SegmentAudience.js";
import { segmentAudienceOf, segmentAudienceText, segmentConfirmation, segmentConfirmTitle, segmentProblem } from "./segment-choice.js";
import type { SegmentChoice, SegmentConfirmation } from "./segment-choice.js";
import { EMPTY_SEGMENT_DRAFT } from "../segments/segment-editor.js";
import { useSegmentCount } from "../segments/useSegmentCount.js";
import BookmarkAddOutlined from "@mui/icons-material/BookmarkAddOutlined";
import type { Template } from "../api/templates-api.js";
import { useNotice } from "../components/useNotice.js";
import { draftFromNotification, draftFromTemplate, type ComposeDraft } from "./compose-prefill.js";
import { ComposeSourceNotice } from "./ComposeSourceNotice.js";
import { SaveTemplateDialog } from "./SaveTemplateDialog.js";
import { TemplatePicker } from "./TemplatePicker.js";
import { composeSourceKey, useComposeSource } from "./useComposeSource.js";
import { editRequestOf, peopleOf } from "./compose-request.js";
import { composeFieldError, useComposeForm } from "./useComposeForm.js";
import { ScheduleFields } from "./ScheduleFields.js";
import { audienceText, confirmTitle, errorParams, peopleProblem, ttlChoices, ttlText } from "./compose-text.js";

type Target = "subscribers" | "people" | "segment";

/** Server field names (the notifications API) → the form's fields. */
const SERVER_FIELDS: Record<string, ComposeField | "people" | "collapseKey"> = {
  title: "title",
  body: "body",
  url: "url",
  icon: "icon",
  image: "image",
  sendAt: "time",
  collapseKey: "collapseKey",
  badge: "badge",
  appBadge: "appBadge",
  data: "data",
  "actions.0.label": "actions.0.label",
  "actions.0.url": "actions.0.url",
  "actions.1.label": "actions.1.label",
  "actions.1.url": "actions.1.url",
};

/** The fields inside each disclosure: opened before one of them is focused. */
const ACTION_FIELDS: readonly ComposeField[] = ["actions.0.label", "actions.0.url", "actions.1.label", "actions.1.url"];
const ADVANCED_FIELDS: readonly ComposeField[] = ["badge", "appBadge", "data"];

const FIELD_ORDER: ComposeField[] = ["title", "body", "url", "icon", "image", ...ACTION_FIELDS, ...ADVANCED_FIELDS, "date", "time"];

/** Nova notificação: the form, its live preview, a test send to this browser, and the notification itself. */
export function ComposePage() {
  const { t } = useTranslation();
  const { notifications, segments, timeZone, siteOrigin, now } = useDashboardServices();
  // `?segmento=ID` (a segment's page, "Enviar para este segmento"): that saved segment is the audience.
  const [searchParams] = useSearchParams();
  const linkedSegment = searchParams.get("segmento") ?? "";
  // `?modelo=`, `?duplicar=`, `?editar=`: the form starts from a template, a copy of a send, or a scheduled send to edit.
  const sourceKey = useMemo(() => composeSourceKey(searchParams), [searchParams]);
  const { state: source, reload: reloadSource } = useComposeSource(sourceKey);
  const navigate = useNavigate();
  const push = useThisBrowserPush();
  const form = useComposeForm(() => initialComposeValues(now(), timeZone));
  const { values, outcome } = form.state;
  const { set, touch, setOutcome } = form;
  const [busy, setBusy] = useState<"send" | "test" | null>(null);
  // What the confirmation names: the audience as the server counts it right now.
  const [confirming, setConfirming] = useState<AudienceSize | null>(null);
  // …or, for a segment, its name (null: written here) and its count with the chosen sites.
  const [confirmingSegment, setConfirmingSegment] = useState<SegmentConfirmation | null>(null);
  // Channel slugs; none ticked = everyone.
  const [channels, setChannels] = useState<string[]>([]);
  const [sites, setSites] = useState<string[]>([]);
  // Admins may send to specific people of their app (by user id) instead of to subscribers.
  const admin = useCurrentUser().role === "admin";
  const [target, setTarget] = useState<Target>(linkedSegment !== "" ? "segment" : "subscribers");
  const [segmentChoice, setSegmentChoice] = useState<SegmentChoice>({ source: "saved", segmentId: linkedSegment, draft: EMPTY_SEGMENT_DRAFT });
  // Segments are for every operator (the API lets a publisher count and send to one); people, for admins.
  const toSegment = target === "segment";
  const segmentCount = useSegmentCount(segments, toSegment && segmentChoice.source === "written" ? segmentChoice.draft : EMPTY_SEGMENT_DRAFT);
  const [peopleText, setPeopleText] = useState("");
  const [category, setCategory] = useState<NotificationCategory>("marketing");
  // gates: re-engagement and (admins) exempt.
  const [deliveryRules, setDeliveryRules] = useState<DeliveryRulesValue>({ reengagement: false, exempt: false });
  const [collapseKey, setCollapseKey] = useState("");
  /** Off: the send stays off the public Avisos page (a test, an internal message). */
  // Avisos: on by default, off for a send to people (it speaks to them); the operator's choice wins.
  const [noticeChoice, setPublishNotice] = useState<boolean | null>(null);
  const [extraErrors, setExtraErrors] = useState<Partial<Record<"people" | "collapseKey" | "segment", string>>>({});
  const [actionsOpen, setActionsOpen] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const people = useMemo(() => peopleOf(peopleText), [peopleText]);
  const toPeople = admin && target === "people";
  const publishNotice = noticeChoice ?? !toPeople;
  // The template the form was last filled from ("Salvar como modelo" offers to update it).
  const [fromTemplate, setFromTemplate] = useState<Template | null>(null);
  // A people send copied or edited: how many people it had (their ids are not shown).
  const [keptPeople, setKeptPeople] = useState<number | null>(null);
  const [savingTemplate, setSavingTemplate] = useState(false);
  const [templatesVersion, setTemplatesVersion] = useState(0);
  const [templateNotice, showTemplateNotice] = useNotice();
  const editing = source.status === "ready" && source.key.kind === "edit" && source.send !== undefined ? source.send : null;
  const editable = editing !== null && editing.status === "scheduled";

  /** Fills the whole form from a template or a send. */
  const applyDraft = (draft: ComposeDraft) => {
    form.load(draft.values);
    setTarget(draft.target === "people" && !admin ? "subscribers" : draft.target);
    setChannels(draft.channels);
    setSites(draft.sites);
    setSegmentChoice(draft.segmentChoice);
    setCategory(draft.category);
    setCollapseKey(draft.collapseKey);
    // What the draft sets inside a disclosure is shown, not hidden behind it.
    setActionsOpen(draft.values.actions.length > 0);
    setAdvancedOpen(draft.collapseKey !== "" || draft.values.badge !== "" || draft.values.appBadge !== "" || draft.values.data !== "" || draft.values.requireInteraction || draft.values.silent);
    setPeopleText("");
    setKeptPeople(draft.people);
    setDeliveryRules(draft.deliveryRules);
    setExtraErrors({});
  };
  const currentDraft = (): ComposeDraft => ({ values, target, channels, sites, segmentChoice, category, collapseKey, people: keptPeople, deliveryRules });

  // Once the source is loaded, the form starts from it (once per source: later edits stay).
  const [appliedSource, setAppliedSource] = useState<typeof source | null>(null);
  if (source.status === "ready" && appliedSource !== source) {
    setAppliedSource(source);
    const context = { now: now(), timeZone };
    if (source.template !== undefined) {
      applyDraft(draftFromTemplate(source.template, context));
      setFromTemplate(source.template);
    } else if (source.send !== undefined) {
      applyDraft(draftFromNotification(source.send, source.key.kind === "edit" ? "edit" : "duplicate", context));
    }
  }
  const formRef = useRef<HTMLFormElement>(null);
  const focusField = (field: ComposeField) => {
    // A field inside a closed disclosure is opened first (synchronously, so it can take the focus).
    if (ACTION_FIELDS.includes(field) && !actionsOpen) flushSync(() => setActionsOpen(true));
    if ((ADVANCED_FIELDS.includes(field) || (field as string) === "collapseKey") && !advancedOpen) flushSync(() => setAdvancedOpen(true));
    formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
  };

  const context = { now: now(), siteOrigin, timeZone };
  const clientErrors: ComposeErrors = validateCompose(values, context);
  const zoneName = useMemo(() => timeZoneName(timeZone, now()), [timeZone, now]);

  /** Beside each field: the server's word when it gave one, else the client rule once the field was touched (the JSON data: as it is typed). */
  const errorOf = (field: ComposeField): string | undefined => {
    const error = composeFieldError(form.state, clientErrors, field);
    return error === undefined ? undefined : "text" in error ? error.text : t(error.key, errorParams(field, values));
  };
  const budget = useMemo(() => composeBudget(values, collapseKey, siteOrigin), [values, collapseKey, siteOrigin]);

  const text = (field: "title" | "body" | "url" | "icon" | "image") => ({
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
    onBlur: () => touch(field),
    error: errorOf(field) !== undefined,
  });

  const remaining = (field: "title" | "body") => {
    const left = COMPOSE_LIMITS[field] - values[field].trim().length;
    if (left < 0) return t("dashboard.compose.over", { count: -left, formatted: formatNumber(-left) });
    return t("dashboard.compose.remaining", { count: left, formatted: formatNumber(left) });
  };

  /** Client rules first (focus the first bad field); true when the form may go to the server. */
  const checkForm = (forSend = true): boolean => {
    form.markSubmitted();
    const first = FIELD_ORDER.find((field) => clientErrors[field] !== undefined);
    if (first) {
      focusField(first);
      return false;
    }
    // Over the push record: refused here as the server would refuse it, saying how much to cut.
    if (budget.remaining < 0) {
      const over = -budget.remaining;
      setOutcome({ severity: "error", text: t("api.pushTooLarge", { count: over, bytes: formatNumber(budget.bytes), max: formatNumber(budget.max), over: formatNumber(over) }) });
      return false;
    }
    const keepsPeople = editing !== null && keptPeople !== null && people.length === 0;
    // Kept people are not known here: their send can keep its sites, not change them.
    const sitesChanged = keepsPeople && editing.audience.type === "users" && [...sites].sort().join(",") !== [...(editing.audience.sites ?? [])].sort().join(",");
    const peopleError = forSend && toPeople ? (keepsPeople ? (sitesChanged ? t("templates.source.peopleSites") : undefined) : peopleProblem(t, people)) : undefined;
    if (peopleError !== undefined) {
      setExtraErrors((previous) => ({ ...previous, people: peopleError }));
      focusField("people" as ComposeField);
      return false;
    }
    const segmentError = forSend && toSegment ? segmentProblem(t, segmentChoice) : undefined;
    if (segmentError !== undefined) {
      setExtraErrors((previous) => ({ ...previous, segment: segmentError }));
      focusField((segmentChoice.source === "saved" ? "segment" : "expression") as ComposeField);
      return false;
    }
    return true;
  };

  const post = async (audience: NotificationAudience, kind: "send" | "test") => {
    setBusy(kind);
    setOutcome(null);
    form.setServerErrors({});
    setExtraErrors({});
    try {
      const request = {
        ...toNotificationRequest(values, { timeZone, audience, collapseKey }),
        ...(audience.type === "users" ? { category } : {}),
        ...(deliveryRules.exempt && admin ? { exempt: true } : {}), // gates
        ...(deliveryRules.reengagement ? { reengagement: true } : {}),
      };
      if (editing !== null && kind === "send") {
        await notifications.updateNotification(editing.id, editRequestOf(request, { now: now(), keepPeople: audience.type === "users" && audience.users.length === 0 }));
        void navigate(notificationPagePath(editing.id));
        return;
      }
      const created = await notifications.createNotification({
        ...request,
        // "Enviar para mim" is a test to one browser, never a notice: the server keeps it off anyway.
        ...(audience.type === "endpoint" ? {} : { notice: publishNotice ? ("public" as const) : ("hidden" as const) }),
      });
      if (kind === "send") {
        // Follow it: Envio shows the live progress (or the schedule, with its cancel button).
        void navigate(notificationPagePath(created.notification.id));
        return;
      }
      setOutcome({ severity: "success", text: t("dashboard.compose.result.testSent") });
    } catch (error) {
      const apiField = isDashboardApiError(error) ? error.field : undefined;
      const field = apiField === undefined ? undefined : apiField.startsWith("audience.users") ? "people" : SERVER_FIELDS[apiField];
      if (field === "people" || field === "collapseKey") {
        setExtraErrors({ [field]: errorText(t, error) });
        focusField(field as ComposeField);
      } else if (isDashboardApiError(error) && error.code === "placeholder_missing" && apiField !== undefined) {
        // The field is the placeholder's name, not a form field: say which one.
        setOutcome({ severity: "error", text: t("dashboard.compose.people.placeholderMissing", { name: apiField }) });
      } else if (field) {
        form.setServerErrors({ [field]: errorText(t, error) });
        focusField(field);
      } else {
        setOutcome({ severity: "error", text: t("dashboard.compose.result.failed", { reason: errorText(t, error) }) });
      }
    } finally {
      setBusy(null);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!checkForm()) return;
    setBusy("send");
    setOutcome(null);
    try {
      if (toSegment) setConfirmingSegment(await segmentConfirmation(segments, segmentChoice, sites));
      else if (!toPeople) setConfirming(await notifications.getAudienceSize({ channels, sites }));
      // The count of many people's subscriptions would not fit a URL: it is taken when it goes out.
      // An edit keeping its people (not shown) is counted when it goes out too.
      else if (people.length === 0 && keptPeople !== null) setConfirming({ recipients: -1, channels: [], sites: [], people: keptPeople, limited: 0, asleep: 0 });
      else if (people.length > AUDIENCE_SIZE_MAX_USERS) setConfirming({ recipients: -1, channels: [], sites: [], people: people.length, limited: 0, asleep: 0 });
      else setConfirming(await notifications.getAudienceSize({ channels: [], sites, users: people }));
    } catch (error) {
      setOutcome({ severity: "error", text: t("dashboard.compose.result.failed", { reason: errorText(t, error) }) });
    } finally {
      setBusy(null);
    }
  };

  const sendToMe = () => {
    if (!push.token || !checkForm(false)) return;
    void post({ type: "endpoint", endpoint: push.token.endpoint }, "test");
  };

  const bellOff = push.token === null;
  const sendToMeHint =
    push.availability === "checking" || push.availability === "available"
      ? bellOff
        ? t("dashboard.compose.sendToMe.bellOff")
        : t("dashboard.compose.sendToMe.ready")
      : t("dashboard.compose.sendToMe.unavailable");

  const scheduledAt = values.when === "later" && !clientErrors.date && !clientErrors.time ? toNotificationRequest(values, { timeZone, audience: { type: "all" } }).sendAt : undefined;
  const previewLink = (value: string) => (isAllowedLink(value.trim(), siteOrigin) ? value.trim() : "");
  const iconProbe = useImageProbe(previewLink(values.icon));
  const imageProbe = useImageProbe(previewLink(values.image));
  // Beside the form on wide screens; on narrower ones inside it, above the send buttons, so the
  // operator sees what goes out before sending it (below the form it was only found after).
  const previewBeside = useMediaQuery((theme: Theme) => theme.breakpoints.up("lg"), { noSsr: true });
  const appBadge = parseAppBadge(values.appBadge);
  const preview = (
    <NotificationPreview
      title={values.title}
      body={values.body}
      icon={previewLink(values.icon)}
      image={previewLink(values.image)}
      badge={previewLink(values.badge)}
      actions={filledActions(values.actions).map((action) => action.label).filter((label) => label !== "")}
      appBadge={appBadge === null || Number.isNaN(appBadge) ? null : appBadge}
      site={new URL(siteOrigin).host}
    />
  );

  return (
    <>
      <PageHeading title={editing !== null ? t("templates.edit.title") : t("dashboard.compose.title")} subtitle={editing !== null ? t("templates.edit.subtitle") : t("dashboard.compose.subtitle")} />
      <ComposeSourceNotice source={source} onRetry={reloadSource} keptPeople={keptPeople} editable={editable} />
      <Box sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", lg: "minmax(0, 1fr) 380px" }, alignItems: "start" }}>
        <Card variant="outlined">
          <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
            <Stack component="form" ref={formRef} noValidate spacing={2.5} onSubmit={(event) => void submit(event)} aria-label={editing !== null ? t("templates.edit.title") : t("dashboard.compose.title")}>
              {editing === null && (
                <TemplatePicker
                  // A new key after a save: the list is read again, with the template just saved.
                  key={templatesVersion}
                  value={fromTemplate?.id ?? ""}
                  onPick={(template) => {
                    // A template holds no delivery rules: the switches stay as they are.
                    applyDraft({ ...draftFromTemplate(template, { now: now(), timeZone }), deliveryRules });
                    setFromTemplate(template);
                  }}
                />
              )}
              <TextField
                {...text("title")}
                label={t("dashboard.compose.fields.title")}
                required
                fullWidth
                helperText={errorOf("title") ?? remaining("title")}
                slotProps={{ formHelperText: { "aria-live": "polite" } as object }}
              />
              <TextField
                {...text("body")}
                label={t("dashboard.compose.fields.body")}
                multiline
                minRows={3}
                maxRows={8}
                fullWidth
                helperText={errorOf("body") ?? remaining("body")}
              />
              <TextField {...text("url")} label={t("dashboard.compose.fields.url")} placeholder={t("dashboard.compose.placeholders.url")} type="url" fullWidth helperText={errorOf("url") ?? t("dashboard.compose.hints.url")} />
              <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
                <TextField {...text("icon")} label={t("dashboard.compose.fields.icon")} placeholder={t("dashboard.compose.placeholders.image")} type="url" fullWidth helperText={errorOf("icon") ?? t("dashboard.compose.hints.icon")} />
                <TextField {...text("image")} label={t("dashboard.compose.fields.image")} placeholder={t("dashboard.compose.placeholders.image")} type="url" fullWidth helperText={errorOf("image") ?? t("dashboard.compose.hints.image")} />
              </Stack>
              {/* A warning, not an error: the address may work for subscribers (a host this browser cannot reach). */}
              {iconProbe === "broken" && (
                <Alert severity="warning" data-testid="broken-icon">
                  {t("dashboard.compose.brokenIcon")}
                </Alert>
              )}
              {imageProbe === "broken" && (
                <Alert severity="warning" data-testid="broken-image">
                  {t("dashboard.compose.brokenImage")}
                </Alert>
              )}
              <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
                <TextField select name="urgency" label={t("dashboard.compose.fields.urgency")} value={values.urgency} onChange={(event) => set("urgency", event.target.value as NotificationUrgency)} fullWidth helperText={t(`dashboard.compose.urgencyHints.${values.urgency}`)}>
                  {NOTIFICATION_URGENCIES.map((urgency) => (
                    <MenuItem key={urgency} value={urgency}>
                      {t(`dashboard.compose.urgency.${urgency}`)}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField select name="ttl" label={t("dashboard.compose.fields.ttl")} value={values.ttl} onChange={(event) => set("ttl", Number(event.target.value))} fullWidth helperText={t("dashboard.compose.hints.ttl")}>
                  {ttlChoices(values.ttl).map((seconds) => (
                    <MenuItem key={seconds} value={seconds}>
                      {(TTL_CHOICES as readonly number[]).includes(seconds) ? t(`dashboard.compose.ttl.s${seconds}`) : ttlText(t, seconds)}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
              <FormControl>
                <FormLabel id="target-label">{t("dashboard.compose.people.target")}</FormLabel>
                <RadioGroup row aria-labelledby="target-label" name="target" value={target} onChange={(event) => setTarget(event.target.value === "people" || event.target.value === "segment" ? event.target.value : "subscribers")}>
                  <FormControlLabel value="subscribers" control={<Radio />} label={t("dashboard.compose.people.subscribers")} />
                  {admin && <FormControlLabel value="people" control={<Radio />} label={t("dashboard.compose.people.people")} />}
                  <FormControlLabel value="segment" control={<Radio />} label={t("segments.compose.target")} />
                </RadioGroup>
              </FormControl>
              {toSegment ? (
                <SegmentAudience
                  value={segmentChoice}
                  onChange={(choice) => {
                    setSegmentChoice(choice);
                    setExtraErrors((previous) => ({ ...previous, segment: undefined }));
                  }}
                  count={segmentCount}
                  error={extraErrors.segment}
                />
              ) : toPeople ? (
                <>
                  <TextField
                    name="people"
                    label={t("dashboard.compose.people.ids")}
                    value={peopleText}
                    onChange={(event) => {
                      setPeopleText(event.target.value);
                      setExtraErrors((previous) => ({ ...previous, people: undefined }));
                    }}
                    multiline
                    minRows={3}
                    maxRows={10}
                    fullWidth
                    error={extraErrors.people !== undefined}
                    helperText={extraErrors.people ?? t("dashboard.compose.people.count", { count: people.length, formatted: formatNumber(people.length) })}
                    slotProps={{ formHelperText: { "aria-live": "polite" } as object, htmlInput: { spellCheck: false } }}
                  />
                  <TextField select name="category" label={t("dashboard.compose.people.category")} value={category} onChange={(event) => setCategory(event.target.value === "transactional" ? "transactional" : "marketing")} fullWidth helperText={t(`dashboard.compose.people.categoryHints.${category}`)}>
                    {NOTIFICATION_CATEGORIES.map((value) => (
                      <MenuItem key={value} value={value}>
                        {t(`dashboard.compose.people.categories.${value}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                </>
              ) : (
                <AudienceSelect value={channels} onChange={setChannels} />
              )}
              <SiteSelect value={sites} onChange={setSites} />
              {!(toPeople && category === "transactional") && <DeliveryRulesFields value={deliveryRules} onChange={setDeliveryRules} admin={admin} />}
              <FormControl>
                <FormControlLabel
                  control={<Switch name="notice" checked={publishNotice} onChange={(event) => setPublishNotice(event.target.checked)} slotProps={{ input: { "aria-describedby": "notice-hint" } }} />}
                  label={t("dashboard.compose.notice.label")}
                />
                <FormHelperText id="notice-hint" sx={{ mx: 0 }}>
                  {publishNotice ? t("dashboard.compose.notice.onHint") : t("dashboard.compose.notice.offHint")}
                </FormHelperText>
              </FormControl>
              <ActionButtonsFields
                actions={values.actions}
                onChange={(actions) => set("actions", actions)}
                errorOf={errorOf}
                onBlur={touch}
                expanded={actionsOpen}
                onExpandedChange={setActionsOpen}
              />
              <AdvancedFields
                values={values}
                set={set}
                errorOf={errorOf}
                onBlur={touch}
                collapseKey={collapseKey}
                onCollapseKeyChange={(value) => {
                  setCollapseKey(value);
                  setExtraErrors((previous) => ({ ...previous, collapseKey: undefined }));
                }}
                collapseKeyError={extraErrors.collapseKey}
                expanded={advancedOpen}
                onExpandedChange={setAdvancedOpen}
              />

              <ScheduleFields
                values={values}
                set={set}
                errorOf={errorOf}
                onBlur={touch}
                summary={scheduledAt ? t("dashboard.compose.scheduleSummary", { when: formatDateTime(scheduledAt, timeZone), zone: zoneName }) : t("dashboard.compose.scheduleZone", { zone: zoneName })}
              />

              {!previewBeside && preview}

              <PayloadBudgetIndicator budget={budget} />

              {outcome && (
                <Alert severity={outcome.severity} role={outcome.severity === "error" ? "alert" : "status"} data-testid="compose-outcome">
                  {outcome.text}
                </Alert>
              )}

              <Stack direction={{ xs: "column-reverse", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" }, pt: 1 }}>
                <Box sx={{ flexGrow: 1 }}>
                  <Button variant="outlined" startIcon={<PhonelinkRing />} onClick={sendToMe} disabled={bellOff || busy !== null} loading={busy === "test"} aria-describedby="send-to-me-hint" fullWidth={false}>
                    {t("dashboard.compose.sendToMe.button")}
                  </Button>
                  <Typography id="send-to-me-hint" variant="caption" color="text.secondary" sx={{ display: "block", mt: 0.5 }}>
                    {sendToMeHint}
                  </Typography>
                </Box>
                <Button variant="text" startIcon={<BookmarkAddOutlined />} onClick={() => setSavingTemplate(true)} disabled={busy !== null || values.title.trim() === ""} sx={{ whiteSpace: "nowrap", flexShrink: 0 }}>
                  {t("templates.compose.save")}
                </Button>
                <Button type="submit" variant="contained" size="large" startIcon={values.when === "later" ? <ScheduleSend /> : <SendOutlined />} loading={busy === "send"} disabled={busy !== null || (editing !== null && !editable)} sx={{ whiteSpace: "nowrap", flexShrink: 0 }}>
                  {editing !== null ? t("templates.edit.save") : values.when === "later" ? t("dashboard.compose.submit.later") : t("dashboard.compose.submit.now")}
                </Button>
              </Stack>
            </Stack>
          </CardContent>
        </Card>
        {previewBeside && <Box sx={{ position: "sticky", top: 88 }}>{preview}</Box>}
      </Box>

      <ConfirmDialog
        open={confirming !== null || confirmingSegment !== null}
        title={confirmingSegment ? segmentConfirmTitle(t, values.when, confirmingSegment) : confirmTitle(t, values.when, confirming)}
        text={
          values.when === "later" && scheduledAt
            ? t("dashboard.compose.confirm.laterText", { title: values.title.trim(), audience: confirmingSegment ? segmentAudienceText(t, confirmingSegment) : audienceText(t, confirming), when: formatDateTime(scheduledAt, timeZone) })
            : t("dashboard.compose.confirm.nowText", { title: values.title.trim(), audience: confirmingSegment ? segmentAudienceText(t, confirmingSegment) : audienceText(t, confirming) })
        }
        note={deliveryRulesText(t, confirmingSegment ? null : confirming, { ...deliveryRules, exempt: deliveryRules.exempt && admin, category: toPeople ? category : "marketing" })}
        confirmLabel={editing !== null ? t("templates.edit.save") : values.when === "later" ? t("dashboard.compose.submit.later") : t("dashboard.compose.submit.now")}
        onClose={() => {
          setConfirming(null);
          setConfirmingSegment(null);
        }}
        onConfirm={async () => {
          setConfirming(null);
          setConfirmingSegment(null);
          const narrowed = sites.length > 0 ? { sites } : {};
          if (toSegment) {
            await post(segmentAudienceOf(segmentChoice, narrowed), "send");
            return;
          }
          if (toPeople) {
            await post({ type: "users", users: people, ...narrowed }, "send");
            return;
          }
          await post(channels.length > 0 ? { type: "channels", channels, ...narrowed } : { type: "all", ...narrowed }, "send");
        }}
      />
      <SaveTemplateDialog
        open={savingTemplate}
        draft={currentDraft()}
        from={fromTemplate}
        onClose={() => setSavingTemplate(false)}
        onSaved={(template, created) => {
          setFromTemplate(template);
          setTemplatesVersion((n) => n + 1);
          showTemplateNotice({ severity: "success", text: created ? t("templates.compose.created", { name: template.name }) : t("templates.compose.updated", { name: template.name }) });
        }}
      />
      {templateNotice}
    </>
  );
}
