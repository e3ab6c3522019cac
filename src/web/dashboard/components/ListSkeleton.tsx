import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";

/** Rows-shaped placeholders while a list loads (announced once to screen readers). */
export function ListSkeleton({ rows = 3 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <Box role="progressbar" aria-label={t("dashboard.common.loading")} aria-busy sx={{ p: 2 }} data-testid="list-loading">
      <Stack spacing={1.5}>
        {Array.from({ length: rows }, (_, index) => (
          <Stack key={index} direction="row" spacing={2} sx={{ alignItems: "center" }}>
            <Skeleton variant="circular" width={32} height={32} />
            <Box sx={{ flexGrow: 1 }}>
              <Skeleton width="40%" />
              <Skeleton width="70%" />
            </Box>
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
