import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import FilterAltOutlined from "@mui/icons-material/FilterAltOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { segmentPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { MONOSPACE } from "./SegmentEditor.js";
import { segmentCountText } from "./segment-editor.js";
import { SegmentDialog } from "./SegmentDialog.js";

/** Segmentos (admin): saved segments with their last measured size; a new one opens its page once saved. */
export function SegmentsPage() {
  const { t } = useTranslation();
  const { segments: api, timeZone } = useDashboardServices();
  const navigate = useNavigate();
  const segments = useResource(useCallback(() => api.listSegments(), [api]));
  const [creating, setCreating] = useState(false);

  return (
    <>
      <ResourceListPage
        title={t("segments.list.title")}
        subtitle={t("segments.list.subtitle")}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)} sx={{ flexShrink: 0, whiteSpace: "nowrap" }}>
            {t("segments.list.new")}
          </Button>
        }
        list={segments}
        empty={<EmptyState icon={<FilterAltOutlined />} title={t("segments.list.emptyTitle")} text={t("segments.list.emptyText")} />}
      >
        {(data) => (
          <ResourceTable
            container
            rows={data}
            label={t("segments.list.title")}
            testId="segments-table"
            rowKey={(segment) => segment.id}
            rowTestId="segment-row"
            rowData={(segment) => ({ "data-name": segment.name })}
            columns={[
              {
                header: t("segments.list.columns.name"),
                sx: { overflowWrap: "anywhere" },
                cell: (segment) => (
                  <>
                    <Link component={RouterLink} to={segmentPagePath(segment.id)}>
                      {segment.name}
                    </Link>
                    {segment.description && (
                      <Typography variant="body2" color="text.secondary">
                        {segment.description}
                      </Typography>
                    )}
                  </>
                ),
              },
              {
                header: t("segments.list.columns.expression"),
                from: "md",
                sx: { overflowWrap: "anywhere", maxWidth: 420 },
                cell: (segment) => (
                  <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: "0.875rem" }}>
                    {segment.expression}
                  </Box>
                ),
              },
              {
                header: t("segments.list.columns.size"),
                sx: { whiteSpace: "nowrap" },
                cell: (segment) => (segment.size ? segmentCountText(t, segment.size) : t("segments.list.notMeasured")),
              },
              {
                header: t("segments.list.columns.measuredAt"),
                from: "md",
                sx: { whiteSpace: "nowrap" },
                cell: (segment) => (segment.size ? formatDateTime(segment.size.measuredAt, timeZone) : "—"),
              },
            ]}
          />
        )}
      </ResourceListPage>
      <SegmentDialog open={creating} segment={null} onClose={() => setCreating(false)} onSaved={(segment) => void navigate(segmentPagePath(segment.id))} />
    </>
  );
}
