/**
 * The Painel's shared list pieces, rendered with the real catalog: the page shell in its four
 * states, the table's semantics, the row actions, the pagination, the filter and the confirmation.
 */
import { renderToStaticMarkup } from "react-dom/server";
import type { ReactElement } from "react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { ThemeProvider, createTheme } from "@mui/material/styles";
import Button from "@mui/material/Button";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n.js";
import { ptBR } from "../../../shared/i18n/catalog.js";
import { DashboardApiError } from "../api/dashboard-api-error.js";
import type { Resource } from "../hooks/useResource.js";
import { SessionContext, type Session } from "../session/session-context.js";
import { EmptyState } from "./EmptyState.js";
import { ListFilterSelect } from "./ListFilterSelect.js";
import { ResourceConfirm } from "./ResourceConfirm.js";
import { ResourceListPage } from "./ResourceListPage.js";
import { ResourcePagination } from "./ResourcePagination.js";
import { RowActions, RowIconAction, RowTextAction } from "./ResourceRowActions.js";
import { ResourceTable } from "./ResourceTable.js";

const i18n = createI18n();
const C = ptBR.dashboard.common;
const session: Session = {
  state: { status: "signed-out" },
  signIn: () => Promise.reject(new Error("not in this test")),
  signOut: () => Promise.resolve(),
  signedIn: () => undefined,
  reload: () => undefined,
};
// A dialog renders into document.body; on the server there is none, so tests render it in place.
const inPlace = createTheme({ components: { MuiDialog: { defaultProps: { disablePortal: true } } } });

function render(element: ReactElement): string {
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <SessionContext.Provider value={session}>
        <ThemeProvider theme={inPlace}>
          <MemoryRouter>{element}</MemoryRouter>
        </ThemeProvider>
      </SessionContext.Provider>
    </I18nextProvider>,
  );
}
/** The markup without emotion's inline <style> blocks, so assertions read elements only. */
const markup = (element: ReactElement) => render(element).replace(/<style[^>]*>[^<]*<\/style>/g, "");
const count = (html: string, needle: string) => html.split(needle).length - 1;

interface Fruit {
  id: string;
  name: string;
  kilos: number;
}
const FRUITS: Fruit[] = [
  { id: "f1", name: "Caju", kilos: 3 },
  { id: "f2", name: "Pitanga", kilos: 12 },
];

function FruitsPage({ resource, empty = true }: { resource: Resource<Fruit[]>; empty?: boolean }) {
  return (
    <ResourceListPage
      title="Frutas"
      subtitle="O que há na feira."
      action={<Button>Nova fruta</Button>}
      note="Só administradores mudam a lista."
      list={{ resource, reload: () => undefined }}
      empty={empty ? <EmptyState icon={<span />} title="Nenhuma fruta" text="Cadastre a primeira." /> : undefined}
    >
      {(data) => (
        <ResourceTable
          rows={data}
          label="Frutas"
          testId="fruits-table"
          rowKey={(fruit) => fruit.id}
          rowTestId="fruit-row"
          rowData={(fruit) => ({ "data-name": fruit.name })}
          columns={[
            { header: "Nome", cell: (fruit) => fruit.name },
            { header: "Quilos", align: "right", testId: "fruit-kilos", cell: (fruit) => String(fruit.kilos) },
            false,
          ]}
          actions={{ cell: (fruit) => <RowTextAction text="Excluir" label={`Excluir ${fruit.name}`} onClick={() => undefined} /> }}
        />
      )}
    </ResourceListPage>
  );
}

describe("the list page shell", () => {
  it("has the page's one h1, its subtitle, its action and its note in every state", () => {
    for (const resource of [{ status: "loading" }, { status: "error", error: new Error("x") }, { status: "ready", data: FRUITS }] as Resource<Fruit[]>[]) {
      const html = markup(<FruitsPage resource={resource} />);
      expect(count(html, "<h1")).toBe(1);
      expect(/<h1[^>]*>Frutas<\/h1>/.test(html)).toBe(true);
      expect(html).toContain(">O que há na feira.<");
      expect(html).toContain(">Nova fruta<");
      expect(html).toContain(">Só administradores mudam a lista.<");
    }
  });

  it("shows a named skeleton while loading, and no table", () => {
    const html = markup(<FruitsPage resource={{ status: "loading" }} />);
    expect(html).toContain(`role="progressbar" aria-label="${C.loading}"`);
    expect(html).toContain('data-testid="list-loading"');
    expect(html).not.toContain("<table");
  });

  it("says why the list failed, as an alert with a retry button", () => {
    const error = new DashboardApiError(503, undefined, "O banco de dados não respondeu.");
    const html = markup(<FruitsPage resource={{ status: "error", error }} />);
    expect(/<div[^>]*role="alert"/.test(html)).toBe(true);
    expect(html).toContain(C.loadFailed.replace("{{reason}}", "O banco de dados não respondeu."));
    expect(/<button[^>]*>Tentar de novo/.test(html)).toBe(true);
    expect(html).not.toContain("<table");
    expect(html).not.toContain("list-loading");
  });

  it("shows the empty state for an empty array, under its h2, and no table", () => {
    const html = markup(<FruitsPage resource={{ status: "ready", data: [] }} />);
    expect(html).toContain('data-testid="empty-state"');
    expect(/<h2[^>]*>Nenhuma fruta<\/h2>/.test(html)).toBe(true);
    expect(html).toContain(">Cadastre a primeira.<");
    expect(html).not.toContain("<table");
  });

  it("leaves the empty state out when the data is not empty, or not an array", () => {
    expect(markup(<FruitsPage resource={{ status: "ready", data: FRUITS }} />)).not.toContain("empty-state");
    const never = markup(
      <ResourceListPage title="Sites" list={{ resource: { status: "ready", data: { sites: [] as string[] } }, reload: () => undefined }}>
        {(data) => <p data-testid="drawn">{data.sites.length} sites</p>}
      </ResourceListPage>,
    );
    expect(never).toContain('<p data-testid="drawn">0 sites</p>');
    expect(never).not.toContain("empty-state");
  });
});

describe("the resource table", () => {
  const html = markup(<FruitsPage resource={{ status: "ready", data: FRUITS }} />);
  const rows = [...html.matchAll(/<tr[^>]*data-testid="fruit-row"[^>]*>(.*?)<\/tr>/g)];

  it("is a named table with a header row of column headers", () => {
    expect(/<table[^>]*aria-label="Frutas"[^>]*data-testid="fruits-table"/.test(html)).toBe(true);
    const head = /<thead[^>]*>(.*?)<\/thead>/.exec(html)?.[1] ?? "";
    expect([...head.matchAll(/<th[^>]*scope="col"[^>]*>(.*?)<\/th>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, ""))).toEqual(["Nome", "Quilos", C.actions]);
  });

  it("hides the actions header from sight but not from screen readers, and leaves out `false` columns", () => {
    const head = /<thead[^>]*>(.*?)<\/thead>/.exec(html)?.[1] ?? "";
    expect(/<th[^>]*><span class="[^"]*">Ações<\/span><\/th>/.test(head)).toBe(true);
    expect(count(head, "<th")).toBe(3);
  });

  it("draws one row per item, with its data attributes, cells in column order and its named action", () => {
    expect(rows.map((row) => /data-name="([^"]+)"/.exec(row[0])?.[1])).toEqual(["Caju", "Pitanga"]);
    const cells = [...rows[1]![1]!.matchAll(/<td([^>]*)>(.*?)<\/td>/g)];
    expect(cells).toHaveLength(3);
    expect(cells[0]![2]).toBe("Pitanga");
    expect(cells[1]![1]).toContain('data-testid="fruit-kilos"');
    expect(cells[1]![2]).toBe("12");
    expect(/<button[^>]*aria-label="Excluir Pitanga"[^>]*>Excluir/.test(cells[2]![2]!)).toBe(true);
  });

  it("shows the actions header when asked, with its own text", () => {
    const shown = markup(
      <ResourceTable rows={FRUITS} label="Frutas" testId="t" rowKey={(f) => f.id} rowTestId="r" columns={[{ header: "Nome", cell: (f) => f.name }]} actions={{ header: "O que fazer", showHeader: true, cell: () => null }} />,
    );
    expect(/<th[^>]*>O que fazer<\/th>/.test(shown)).toBe(true);
  });

  it("scrolls inside a container only when asked", () => {
    const table = (container?: true) => markup(<ResourceTable container={container} rows={FRUITS} label="Frutas" testId="t" rowKey={(f) => f.id} rowTestId="r" columns={[{ header: "Nome", cell: (f) => f.name }]} />);
    expect(table(true)).toContain("MuiTableContainer-root");
    expect(table()).not.toContain("MuiTableContainer-root");
  });
});

describe("the row actions", () => {
  it("name an icon button for its row and keep the tooltip's text as its title", () => {
    const html = markup(<RowIconAction title="Excluir" label="Excluir Caju" icon={<svg />} onClick={() => undefined} testId="delete-caju" />);
    expect(/^<button[^>]*aria-label="Excluir Caju"[^>]*data-testid="delete-caju"/.test(html)).toBe(true);
  });

  it("wrap a button that can be disabled in a span, so its tooltip still says why", () => {
    const off = markup(<RowIconAction title="Você não pode se remover" label="Remover Ana" icon={<svg />} onClick={() => undefined} disabled />);
    expect(/^<span[^>]*><button[^>]*disabled=""[^>]*aria-label="Remover Ana"/.test(off)).toBe(true);
    const on = markup(<RowIconAction title="Remover" label="Remover Bia" icon={<svg />} onClick={() => undefined} disabled={false} />);
    expect(on.startsWith("<span")).toBe(true);
    expect(on).not.toContain('disabled=""');
  });

  it("make a text action with `to` a link, and line actions up at the right", () => {
    const html = markup(
      <RowActions>
        <RowTextAction text="Usar" label="Usar Boas-vindas" to="/painel/enviar?modelo=7" variant="outlined" />
        <RowTextAction text="Excluir" label="Excluir Boas-vindas" onClick={() => undefined} color="error" />
      </RowActions>,
    );
    expect(/<a[^>]*aria-label="Usar Boas-vindas"[^>]*href="\/painel\/enviar\?modelo=7"[^>]*>Usar<\/a>/.test(html)).toBe(true);
    expect(/<button[^>]*class="[^"]*MuiButton-colorError[^"]*"[^>]*aria-label="Excluir Boas-vindas"/.test(html)).toBe(true);
  });
});

describe("the pagination and the filter", () => {
  it("says the range and the page size in pt-BR, with the catalog's labels", () => {
    const html = markup(
      <ResourcePagination count={1234} page={2} pageSize={25} pageSizes={[25, 50]} onPage={() => undefined} onPageSize={() => undefined} perPageLabel="Por página" rangeKey="subscribers.range" />,
    );
    expect(html).toContain(">Por página<");
    expect(html).toContain(">26–50 de 1.234<");
  });

  it("names the page buttons from the catalog when given", () => {
    const html = markup(
      <ResourcePagination
        count={40}
        page={1}
        pageSize={10}
        pageSizes={[10]}
        onPage={() => undefined}
        onPageSize={() => undefined}
        perPageLabel="Por página"
        rangeKey="notifications.history.displayedRows"
        buttonLabel={(type) => i18n.t(`notifications.history.pageLabels.${type}`)}
      />,
    );
    expect(html).toContain(`aria-label="${ptBR.notifications.history.pageLabels.next}"`);
    expect(html).toContain(`aria-label="${ptBR.notifications.history.pageLabels.previous}"`);
  });

  it("shows 'any' for the empty value of a filter, with its label up", () => {
    const html = markup(<ListFilterSelect label="Canal" anyLabel="Todos" value="" onChange={() => undefined} options={[{ value: "obras", label: "Obras" }]} testId="channel-filter" />);
    expect(html).toContain('data-testid="channel-filter"');
    expect(/<label[^>]*data-shrink="true"[^>]*>Canal<\/label>/.test(html)).toBe(true);
    expect(/role="combobox"[^>]*>Todos</.test(html)).toBe(true);
  });
});

describe("the confirmation before an action on a row", () => {
  const confirm = (target: Fruit | null) =>
    markup(
      <ResourceConfirm
        target={target}
        title={(fruit) => `Excluir ${fruit.name}?`}
        text={(fruit) => `${fruit.kilos} kg vão junto.`}
        confirmLabel="Excluir"
        destructive={(fruit) => fruit.kilos > 5}
        onConfirm={() => Promise.resolve()}
        onClose={() => undefined}
      />,
    );

  it("is closed while no row is asked about", () => {
    expect(confirm(null)).toBe("");
  });

  it("asks about the row, named by its title, with Cancelar focused first", () => {
    const html = confirm(FRUITS[1]!);
    expect(/role="dialog"[^>]*aria-labelledby="confirm-title"/.test(html)).toBe(true);
    expect(/<h2[^>]*id="confirm-title"[^>]*>Excluir Pitanga\?<\/h2>/.test(html)).toBe(true);
    expect(html).toContain(">12 kg vão junto.");
    const buttons = [...html.matchAll(/<button[^>]*>(.*?)<\/button>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, ""));
    expect(buttons).toEqual([C.cancel, "Excluir"]);
  });

  it("makes the confirm button red only for what the row says cannot be undone", () => {
    const red = /<button[^>]*class="[^"]*MuiButton-containedError/;
    expect(red.test(confirm(FRUITS[1]!))).toBe(true);
    expect(red.test(confirm(FRUITS[0]!))).toBe(false);
  });
});
