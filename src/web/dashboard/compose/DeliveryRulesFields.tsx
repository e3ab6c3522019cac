import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import Switch from "@mui/material/Switch";

export interface DeliveryRulesValue {
  readonly reengagement: boolean;
  readonly exempt: boolean;
}

/**
 * gates: a marketing send's delivery rules in the compose: "reengajamento" (sleeping subscribers
 * too, once per sleeping period) for everyone, and the exempt switch for admins only, with a
 * clear warning while it is on (caps, windows and sleeping no longer apply).
 */
export function DeliveryRulesFields({ value, onChange, admin }: { value: DeliveryRulesValue; onChange: (value: DeliveryRulesValue) => void; admin: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <FormControl>
        <FormControlLabel
          control={<Switch name="reengagement" checked={value.reengagement} onChange={(event) => onChange({ ...value, reengagement: event.target.checked })} slotProps={{ input: { "aria-describedby": "reengagement-hint" } }} />}
          label={t("delivery-rules.compose.reengagement")}
        />
        <FormHelperText id="reengagement-hint" sx={{ mx: 0 }}>
          {t("delivery-rules.compose.reengagementHelp")}
        </FormHelperText>
      </FormControl>
      {admin && (
        <FormControl>
          <FormControlLabel
            control={<Switch name="exempt" color="warning" checked={value.exempt} onChange={(event) => onChange({ ...value, exempt: event.target.checked })} slotProps={{ input: { "aria-describedby": "exempt-hint" } }} />}
            label={t("delivery-rules.compose.exempt")}
          />
          {value.exempt ? (
            <Alert id="exempt-hint" severity="warning" role="status" data-testid="exempt-warning">
              {t("delivery-rules.compose.exemptWarning")}
            </Alert>
          ) : (
            <FormHelperText id="exempt-hint" sx={{ mx: 0 }}>
              {t("delivery-rules.compose.exemptHelp")}
            </FormHelperText>
          )}
        </FormControl>
      )}
    </>
  );
}
