import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import AddOutlined from "@mui/icons-material/AddOutlined";
import CodeOutlined from "@mui/icons-material/CodeOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import TuneOutlined from "@mui/icons-material/TuneOutlined";
import VpnKeyOutlined from "@mui/icons-material/VpnKeyOutlined";
import type { IdentitySecretResponse, Site, SitesResponse } from "../../../shared/api/sites.js";
import { errorText } from "../api/error-text.js";
import { ResourceConfirm } from "../components/ResourceConfirm.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { RowIconAction } from "../components/ResourceRowActions.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { useNotice } from "../components/useNotice.js";
import { formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { useCurrentUser } from "../session/session-context.js";
import { IdentitySecretDialog } from "./IdentitySecretDialog.js";
import { SiteDialog } from "./SiteDialog.js";
import { SiteIdentityCell } from "./SiteIdentityCell.js";
import { SiteVisitorTagsSwitch } from "./SiteVisitorTagsSwitch.js";
import { SnippetDialog } from "./SnippetDialog.js";
import { SiteKeysDialog } from "./SiteKeysDialog.js";
import { SiteDeliveryDialog } from "./SiteDeliveryDialog.js";
import { SiteEngagementCard } from "./SiteEngagementCard.js";

/** Phones: half the cells' side padding, so the columns fit 390 px without the page scrolling sideways. */
const PHONE_CELLS = { "& .MuiTableCell-root": { px: { xs: 1, sm: 2 } } } as const;

/**
 * Sites: admins register the origins that may show the bell and delete them (with their
 * subscribers, which the confirmation says); everyone sees the list and the snippet. Each site
 * shows how its people are identified; admins generate or replace its identity secret (shown
 * once, in a dialog) and switch verification.
 */
export function SitesPage() {
  const { t } = useTranslation();
  const { sites: api, timeZone } = useDashboardServices();
  const admin = useCurrentUser().role === "admin";
  const sites = useResource(useCallback(() => api.listSites(), [api]));
  const [creating, setCreating] = useState(false);
  const [snippetOf, setSnippetOf] = useState<Site | null>(null);
  const [keysOf, setKeysOf] = useState<Site | null>(null);
  const [deleting, setDeleting] = useState<Site | null>(null);
  const [rotating, setRotating] = useState<Site | null>(null);
  const [secretShown, setSecretShown] = useState<IdentitySecretResponse | null>(null);
  const [deliveryOf, setDeliveryOf] = useState<Site | null>(null);
  const [noticeElement, setNotice] = useNotice();
  const sinoUrl = sites.resource.status === "ready" ? sites.resource.data.sinoUrl : "";

  const change = (next: (list: Site[]) => Site[]) => sites.update((data: SitesResponse) => ({ ...data, sites: next(data.sites) }));
  const replace = (site: Site) => change((list) => list.map((s) => (s.id === site.id ? site : s)));
  const showSecret = (shown: IdentitySecretResponse) => {
    replace(shown.site);
    setSecretShown(shown);
  };
  // The first secret breaks nothing; replacing one asks first (the old one stops after the grace).
  const rotate = (site: Site) => {
    if (site.identity.hasSecret) return setRotating(site);
    api.rotateIdentitySecret(site.id).then(showSecret, (error: unknown) => setNotice({ severity: "error", text: errorText(t, error) }));
  };
  const setVerification = async (site: Site, verification: boolean) => {
    try {
      replace(await api.updateSite(site.id, { identityVerification: verification }));
      setNotice({ severity: "success", text: t(verification ? "sites.identity.verificationChangedOn" : "sites.identity.verificationChangedOff", { origin: site.origin }) });
    } catch (error) {
      setNotice({ severity: "error", text: errorText(t, error) });
    }
  };
  const setVisitorTags = async (site: Site, visitorTags: boolean) => {
    try {
      replace(await api.updateSite(site.id, { visitorTags }));
      setNotice({ severity: "success", text: t(visitorTags ? "sites.visitorTags.changedOn" : "sites.visitorTags.changedOff", { origin: site.origin }) });
    } catch (error) {
      setNotice({ severity: "error", text: errorText(t, error) });
    }
  };

  return (
    <>
      <ResourceListPage
        title={t("sites.title")}
        subtitle={t("sites.subtitle")}
        action={
          admin ? (
            <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
              {t("sites.new")}
            </Button>
          ) : undefined
        }
        note={admin ? undefined : t("sites.readOnly")}
        above={sites.resource.status === "ready" && <SiteEngagementCard sites={sites.resource.data.sites} />}
        // Never empty: Sino's own site is always listed.
        list={sites}
      >
        {(data) => (
          <ResourceTable
            // The identity switches need room: on a phone the table scrolls inside its card, not the page.
            // Relative: the visually hidden "Ações" header (absolute) would otherwise widen the page.
            container={{ position: "relative" }}
            sx={PHONE_CELLS}
            rows={data.sites}
            label={t("sites.title")}
            testId="sites-table"
            rowKey={(site) => site.id}
            rowTestId="site-row"
            rowData={(site) => ({ "data-origin": site.origin })}
            columns={[
              {
                header: t("sites.columns.site"),
                cell: (site) => (
                  <>
                    <Typography sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>{site.origin}</Typography>
                    {/* Phones: the key under the origin, its column hidden (the snippet needs it). */}
                    <Typography variant="body2" color="text.secondary" sx={{ display: { sm: "none" }, mt: 0.5 }} data-testid="site-key-phone">
                      {t("sites.columns.key")}:{" "}
                      <Box component="span" sx={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>
                        {site.key}
                      </Box>
                    </Typography>
                    {site.builtIn && (
                      <Tooltip title={t("sites.builtInHint")}>
                        <Chip size="small" color="primary" variant="outlined" label={t("sites.builtIn")} sx={{ mt: 0.5 }} />
                      </Tooltip>
                    )}
                  </>
                ),
              },
              { header: t("sites.columns.key"), from: "sm", sx: { fontFamily: "monospace" }, testId: "site-key", cell: (site) => site.key },
              { header: t("sites.columns.subscribers"), align: "right", testId: "site-subscribers", cell: (site) => formatNumber(site.subscribers) },
              {
                header: t("sites.identity.column"),
                cell: (site) => (
                  <>
                    <SiteIdentityCell site={site} admin={admin} timeZone={timeZone} onRotate={rotate} onVerificationChange={setVerification} />
                    <SiteVisitorTagsSwitch site={site} admin={admin} onChange={setVisitorTags} />
                  </>
                ),
              },
            ]}
            actions={{
              sx: { whiteSpace: "nowrap" },
              cell: (site) => (
                <>
                  <RowIconAction icon={<CodeOutlined />} title={t("sites.snippet")} label={t("sites.snippetNamed", { origin: site.origin })} onClick={() => setSnippetOf(site)} />
                  {admin && (
                    <RowIconAction
                      icon={<VpnKeyOutlined />}
                      title={t("site-keys.painel.button")}
                      label={t("site-keys.painel.buttonNamed", { origin: site.origin })}
                      onClick={() => setKeysOf(site)}
                      testId="site-keys-button"
                    />
                  )}
                  {admin && (
                    <RowIconAction
                      icon={<TuneOutlined />}
                      title={t("engagement.delivery.open")}
                      label={t("engagement.delivery.openNamed", { origin: site.origin })}
                      onClick={() => setDeliveryOf(site)}
                      testId="site-delivery-open"
                    />
                  )}
                  {admin && !site.builtIn && (
                    <RowIconAction icon={<DeleteOutlined />} title={t("sites.delete")} label={t("sites.deleteNamed", { origin: site.origin })} onClick={() => setDeleting(site)} />
                  )}
                </>
              ),
            }}
          />
        )}
      </ResourceListPage>

      <SiteDialog
        open={creating}
        create={(origin) => api.createSite({ origin })}
        onClose={() => setCreating(false)}
        onCreated={(site) => {
          setCreating(false);
          change((list) => [...list, site]);
          setNotice({ severity: "success", text: t("sites.created", { origin: site.origin }) });
          // Straight to what the owner has to paste.
          setSnippetOf(site);
        }}
      />
      <SiteDeliveryDialog
        site={deliveryOf}
        defaults={sites.resource.status === "ready" ? sites.resource.data.deliveryDefaults : null}
        onClose={() => setDeliveryOf(null)}
        save={async (site, delivery) => {
          replace(await api.updateSite(site.id, delivery));
          setNotice({ severity: "success", text: t("engagement.delivery.saved", { origin: site.origin }) });
        }}
      />
      <SnippetDialog site={snippetOf} sinoUrl={sinoUrl} onClose={() => setSnippetOf(null)} />
      <SiteKeysDialog site={keysOf} timeZone={timeZone} onClose={() => setKeysOf(null)} />
      <ResourceConfirm
        target={rotating}
        title={(site) => t("sites.identity.rotateTitle", { origin: site.origin })}
        text={() => t("sites.identity.rotateText")}
        confirmLabel={t("sites.identity.rotate")}
        onClose={() => setRotating(null)}
        onConfirm={async (site) => showSecret(await api.rotateIdentitySecret(site.id))}
      />
      <IdentitySecretDialog shown={secretShown} timeZone={timeZone} onClose={() => setSecretShown(null)} />
      <ResourceConfirm
        target={deleting}
        title={(site) => t("sites.deleteTitle", { origin: site.origin })}
        text={(site) => t("sites.deleteText", { count: site.subscribers, formattedCount: formatNumber(site.subscribers) })}
        confirmLabel={t("sites.delete")}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async (gone) => {
          const { removedSubscribers } = await api.deleteSite(gone.id);
          change((list) => list.filter((s) => s.id !== gone.id));
          setNotice({ severity: "success", text: t("sites.deleted", { origin: gone.origin, count: removedSubscribers }) });
        }}
      />
      {noticeElement}
    </>
  );
}
