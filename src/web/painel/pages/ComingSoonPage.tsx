import { useTranslation } from "react-i18next";
import Card from "@mui/material/Card";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import GroupsOutlined from "@mui/icons-material/GroupsOutlined";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { PageHeading } from "../components/PageHeading.js";

const ICONS = {
  history: <HistoryOutlined />,
  channels: <ForumOutlined />,
  subscribers: <GroupsOutlined />,
} as const;

export type ComingSoonSection = keyof typeof ICONS;

/** A section whose API is not built yet: an honest empty state, never sample data. */
export function ComingSoonPage({ section }: { section: ComingSoonSection }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading title={t(`painel.soon.${section}.title`)} subtitle={t(`painel.soon.${section}.subtitle`)} />
      <Card variant="outlined">
        <EmptyState icon={ICONS[section]} title={t("painel.soon.emptyTitle")} text={t(`painel.soon.${section}.text`)} />
      </Card>
    </>
  );
}
