import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import FilterAltOutlined from "@mui/icons-material/FilterAltOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { PageHeading } from "../components/PageHeading.js";
import { ResourceView } from "../components/ResourceView.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { segmentPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { MONOSPACE } from "./SegmentEditor.js";
import { segmentCountText } from "./segment-editor.js";
import { SegmentDialog } from "./SegmentDialog.js";

const fromMd = { display: { xs: "none", md: "table-cell" } } as const;

/** Segmentos (admin): saved segments with their last measured size; a new one opens its page once saved. */
export function SegmentsPage() {
  const { t } = useTranslation();
  const { segments: api, timeZone } = useDashboardServices();
  const navigate = useNavigate();
  const { resource, reload } = useResource(useCallback(() => api.listSegments(), [api]));
  const [creating, setCreating] = useState(false);

  const createButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)} sx={{ flexShrink: 0, whiteSpace: "nowrap" }}>
      {t("segments.list.new")}
    </Button>
  );

  return (
    <>
      <PageHeading title={t("segments.list.title")} subtitle={t("segments.list.subtitle")} action={createButton} />
      <Card variant="outlined">
        <ResourceView
          resource={resource}
          onRetry={reload}
          isEmpty={(data) => data.length === 0}
          empty={<EmptyState icon={<FilterAltOutlined />} title={t("segments.list.emptyTitle")} text={t("segments.list.emptyText")} />}
        >
          {(data) => (
            <TableContainer>
              <Table aria-label={t("segments.list.title")} data-testid="segments-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("segments.list.columns.name")}</TableCell>
                    <TableCell sx={fromMd}>{t("segments.list.columns.expression")}</TableCell>
                    <TableCell>{t("segments.list.columns.size")}</TableCell>
                    <TableCell sx={fromMd}>{t("segments.list.columns.measuredAt")}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.map((segment) => (
                    <TableRow key={segment.id} data-testid="segment-row" data-name={segment.name}>
                      <TableCell sx={{ overflowWrap: "anywhere" }}>
                        <Link component={RouterLink} to={segmentPagePath(segment.id)}>
                          {segment.name}
                        </Link>
                        {segment.description && (
                          <Typography variant="body2" color="text.secondary">
                            {segment.description}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell sx={{ ...fromMd, overflowWrap: "anywhere", maxWidth: 420 }}>
                        <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: "0.875rem" }}>
                          {segment.expression}
                        </Box>
                      </TableCell>
                      <TableCell sx={{ whiteSpace: "nowrap" }}>{segment.size ? segmentCountText(t, segment.size) : t("segments.list.notMeasured")}</TableCell>
                      <TableCell sx={{ ...fromMd, whiteSpace: "nowrap" }}>{segment.size ? formatDateTime(segment.size.measuredAt, timeZone) : "—"}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </ResourceView>
      </Card>
      <SegmentDialog open={creating} segment={null} onClose={() => setCreating(false)} onSaved={(segment) => void navigate(segmentPagePath(segment.id))} />
    </>
  );
}
