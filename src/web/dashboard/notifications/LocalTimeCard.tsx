import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import type { Notification } from "../../../shared/api/notifications.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useDashboardServices } from "../services.js";

/**
 * Horário local dos assinantes: how many pushes of the send wait for their window in the
 * subscriber's zone and when the next of them go, and how many were dropped because the TTL would
 * end first. Live with the progress stream; shown only once something waited.
 */
export function LocalTimeCard({ notification }: { notification: Notification }) {
  const { t } = useTranslation();
  const { timeZone } = useDashboardServices();
  const { waiting, expired } = notification.counts;
  if (waiting === 0 && expired === 0) return null;
  return (
    <Card variant="outlined" data-testid="send-local-time">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h6" component="h2" id="send-local-time-title" sx={{ mb: 1 }}>
          {t("local-time.card.title")}
        </Typography>
        {waiting > 0 && (
          <Typography data-testid="local-time-waiting">{t("local-time.card.waiting", { count: waiting, total: formatNumber(waiting) })}</Typography>
        )}
        {waiting > 0 && notification.waitingUntil !== null && (
          <Typography sx={{ fontWeight: 600 }} data-testid="local-time-next">
            {t("local-time.card.nextOpening", { when: formatDateTime(notification.waitingUntil, timeZone), zone: timeZone })}
          </Typography>
        )}
        {expired > 0 && (
          <Typography color="text.secondary" data-testid="local-time-expired">
            {t("local-time.card.expired", { count: expired, total: formatNumber(expired) })}
          </Typography>
        )}
        <Box component="dl" aria-labelledby="send-local-time-title" sx={{ display: "grid", gridTemplateColumns: "repeat(2, minmax(0, 12rem))", gap: 2, mt: 2, mb: 0 }}>
          {(["waiting", "expired"] as const).map((counter) => (
            <Box key={counter} sx={{ p: 1.5, borderRadius: 2, bgcolor: "action.hover" }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {t(`local-time.card.counts.${counter}`)}
              </Typography>
              <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 600, fontVariantNumeric: "tabular-nums" }} data-testid={`count-${counter}`}>
                {formatNumber(notification.counts[counter])}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}
