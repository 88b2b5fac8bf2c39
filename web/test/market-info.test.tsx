import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import {
  type BlockchainStats,
  type CryptoNewsPage,
  marketInfoMessages,
  type NewsItem,
} from "@tp/domain/market-info";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../src/app/query-client.ts";
import { appendUnseen } from "../src/market-info/crypto-news-api.ts";
import { BlockchainStatsPage } from "../src/routes/market-info/blockchain-stats-page.tsx";
import {
  type FakeReply,
  type FakeRoute,
  failure,
  installFakeApi,
  storeSession,
  success,
} from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

const stats: BlockchainStats = {
  source: "blockchain.com",
  fetched_at: "2026-03-04T10:00:05.000Z",
  as_of: "2026-03-04T10:00:00.000Z",
  market_price_usd: 67_123.45,
  hash_rate_hs: 6.5e20,
  difficulty: 8.38e13,
  minutes_between_blocks: 9.7,
  total_blocks: 838_000,
  total_btc: 19_650_000,
  next_retarget_block: 838_656,
  blocks_mined_24h: 148,
  btc_mined_24h: 462.5,
  transactions_24h: 512_345,
  total_fees_btc_24h: 12.3456,
  miners_revenue_usd_24h: 32_000_000,
  miners_revenue_btc_24h: 475,
  estimated_transaction_volume_usd_24h: 1_500_000_000,
  estimated_btc_sent_24h: 22_000,
  trade_volume_usd_24h: 400_000_000,
  trade_volume_btc_24h: 6_000,
};

const providerDown = failure(503, marketInfoMessages.blockchainStatsUnavailable);

/** Captured before the clock is faked: the query cache notifies on the real 0 ms timer. */
const realSetTimeout = globalThis.setTimeout;

/**
 * Lets replies land and render. A 0 ms timer counts as 1 ms, so each turn moves the fake
 * clock by 1 ms (a few ms in all: far below the 30 s being tested).
 */
const settle = () =>
  act(async () => {
    for (let turn = 0; turn < 3; turn += 1) {
      await new Promise((resolve) => realSetTimeout(resolve, 0));
      await vi.advanceTimersByTimeAsync(1);
    }
  });
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function mountStats(route: FakeRoute) {
  const api = installFakeApi({ "GET /blockchain-stats": route });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <BlockchainStatsPage />
    </QueryClientProvider>,
  );
  return { ...api, fetches: () => api.callsTo("GET /blockchain-stats").length };
}

describe("blockchain stats page (SPEC §2, §7, §9)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows the statistics and polls every 30 s", async () => {
    const api = mountStats(success(stats));
    await settle();
    expect(screen.getByText("$67,123.45")).toBeInTheDocument();
    expect(screen.getByText("650 EH/s")).toBeInTheDocument();
    expect(screen.getByText("512,345")).toBeInTheDocument();
    expect(screen.getByText(/Source: blockchain\.com/)).toBeInTheDocument();
    expect(api.fetches()).toBe(1);

    await advance(29_900);
    expect(api.fetches()).toBe(1);
    await advance(100);
    expect(api.fetches()).toBe(2);
    await advance(30_000);
    expect(api.fetches()).toBe(3);
  });

  it('says "No data available" with the server\'s reason on a 503, and keeps trying every 30 s', async () => {
    let reply = providerDown;
    const api = mountStats(() => reply);
    await settle();
    expect(screen.getByRole("alert")).toHaveTextContent("No data available");
    expect(screen.getByText(marketInfoMessages.blockchainStatsUnavailable)).toBeInTheDocument();
    expect(screen.queryByText("$67,123.45")).not.toBeInTheDocument();
    // A 503 is not retried at once: the provider was just found down.
    await advance(10_000);
    expect(api.fetches()).toBe(1);

    reply = success(stats);
    await advance(20_000);
    await settle();
    expect(api.fetches()).toBe(2);
    expect(screen.getByText("$67,123.45")).toBeInTheDocument();
    expect(screen.queryByText("No data available")).not.toBeInTheDocument();
  });

  it("keeps the last figures, marked, when a refresh fails", async () => {
    let reply = success(stats);
    mountStats(() => reply);
    await settle();
    reply = providerDown;
    await advance(30_000);
    await settle();
    expect(screen.getByText("$67,123.45")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("These figures could not be refreshed");
    expect(screen.queryByText("No data available")).not.toBeInTheDocument();
  });
});

function article(id: number): NewsItem {
  return {
    id: String(id),
    title: `Headline ${id}`,
    subtitle: `Summary ${id}`,
    source_name: "CoinDesk",
    url: `https://news.example/articles/${id}`,
    cover_image_url: null,
    published_at: "2026-03-04T09:00:00.000Z",
    assets: [{ symbol: "BTC", name: "Bitcoin" }],
  };
}

function newsPage(page: number, ids: number[], next: number | null = page + 1): CryptoNewsPage {
  return {
    source: "CoinMarketCap",
    fetched_at: "2026-03-04T10:00:00.000Z",
    data: ids.map(article),
    page,
    page_size: 10,
    next_page: next,
  };
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** IntersectionObserver that the test fires: "the end of the list came into view". */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  private readonly elements = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(element: Element) {
    this.elements.add(element);
  }
  disconnect() {
    this.elements.clear();
  }
  unobserve(element: Element) {
    this.elements.delete(element);
  }
  static scrollToEnd() {
    for (const observer of FakeIntersectionObserver.instances) {
      const entries = [...observer.elements].map(
        (target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry,
      );
      if (entries.length > 0) {
        observer.callback(entries, observer as unknown as IntersectionObserver);
      }
    }
  }
}

function headlines() {
  const list = screen.queryByRole("list", { name: "Crypto news" });
  if (list === null) return [];
  return within(list)
    .queryAllByRole("heading", { level: 2 })
    .map((heading) => heading.textContent);
}

describe("crypto news page (SPEC §2, §7, §8)", () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal("IntersectionObserver", FakeIntersectionObserver);
    storeSession();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("appends only unseen ids", () => {
    const shown = [article(1), article(2)];
    expect(
      appendUnseen(shown, [article(2), article(3), article(3)]).map((item) => item.id),
    ).toEqual(["1", "2", "3"]);
  });

  it("loads the next page when the end of the list scrolls into view, appending unseen articles", async () => {
    const app = renderApp("/user/crypto-news", {
      "GET /crypto-news?page=1": success(newsPage(1, range(1, 10))),
      // The feed moved on: 9 and 10 slid onto page 2 and are already shown.
      "GET /crypto-news?page=2": success(newsPage(2, [9, 10, ...range(11, 18)])),
      "GET /crypto-news?page=3": success(newsPage(3, [19], null)),
    });
    expect(await screen.findByRole("link", { name: "Headline 1" })).toHaveAttribute(
      "href",
      "https://news.example/articles/1",
    );
    expect(headlines()).toHaveLength(10);
    expect(app.callsTo("GET /crypto-news?page=2")).toHaveLength(0);

    act(() => FakeIntersectionObserver.scrollToEnd());
    await screen.findByRole("link", { name: "Headline 18" });
    expect(headlines()).toEqual(range(1, 18).map((id) => `Headline ${id}`));

    act(() => FakeIntersectionObserver.scrollToEnd());
    await screen.findByRole("link", { name: "Headline 19" });
    expect(await screen.findByText("You have reached the end of the news.")).toBeInTheDocument();
    act(() => FakeIntersectionObserver.scrollToEnd());
    expect(app.callsTo("GET /crypto-news?page=4")).toHaveLength(0);
    expect(app.callsTo("GET /crypto-news?page=2")).toHaveLength(1);
  });

  it('says "Failed to load news" with the server\'s details when the provider is down', async () => {
    const app = renderApp("/user/crypto-news", {
      "GET /crypto-news": failure(503, marketInfoMessages.cryptoNewsUnavailable),
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load news");
    expect(screen.getByText(marketInfoMessages.cryptoNewsUnavailable)).toBeInTheDocument();
    expect(app.callsTo("GET /crypto-news")).toHaveLength(1);
  });

  it("keeps the articles read so far when the next page fails, and can try again", async () => {
    let secondPage: FakeReply = failure(503, marketInfoMessages.cryptoNewsUnavailable);
    const app = renderApp("/user/crypto-news", {
      "GET /crypto-news?page=1": success(newsPage(1, range(1, 10))),
      "GET /crypto-news?page=2": () => secondPage,
    });
    await screen.findByRole("link", { name: "Headline 10" });
    act(() => FakeIntersectionObserver.scrollToEnd());
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load news");
    expect(headlines()).toHaveLength(10);

    secondPage = success(newsPage(2, range(11, 20)));
    await app.user.click(screen.getByRole("button", { name: "Try again" }));
    await screen.findByRole("link", { name: "Headline 20" });
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await waitFor(() => expect(headlines()).toHaveLength(20));
  });
});

describe("document galleries (PRODUCT.md D6)", () => {
  it("shows an empty state when the operator published nothing", async () => {
    renderApp("/confirmation", {
      "GET /site-content/galleries/confirmation": success({ name: "confirmation", images: [] }),
    });
    expect(await screen.findByText("No documents published yet")).toBeInTheDocument();
    expect(
      screen.getByRole("heading", { level: 1, name: "Confirmation statements" }),
    ).toBeVisible();
  });

  it("lists the published images, each opening in full", async () => {
    const app = renderApp("/financial-statement", {
      "GET /site-content/galleries/financial-statement": success({
        name: "financial-statement",
        images: [
          {
            url: "/api/v1/site-content/galleries/financial-statement/2024-annual-report.png",
            title: "2024 annual report",
          },
          {
            url: "/api/v1/site-content/galleries/financial-statement/2025-q1.jpg",
            title: "2025 q1",
          },
          // Never shown: a listing cannot point the page at another site.
          { url: "https://elsewhere.example/x.png", title: "elsewhere" },
        ],
      }),
    });
    const gallery = await screen.findByRole("list", { name: "Financial statements" });
    const images = within(gallery).getAllByRole("img");
    expect(images.map((image) => image.getAttribute("alt"))).toEqual([
      "2024 annual report",
      "2025 q1",
    ]);
    expect(images[0]).toHaveAttribute(
      "src",
      "/api/v1/site-content/galleries/financial-statement/2024-annual-report.png",
    );
    expect(within(gallery).getAllByRole("link")[1]).toHaveAttribute(
      "href",
      "/api/v1/site-content/galleries/financial-statement/2025-q1.jpg",
    );
    expect(screen.queryByText("No documents published yet")).not.toBeInTheDocument();
    expect(app.callsTo("GET /site-content/galleries/financial-statement")).toHaveLength(1);
  });

  it("shows the legal-documents gallery on /legal-documents, with the link to /confirmation", async () => {
    renderApp("/legal-documents", {
      "GET /site-content/galleries/legal-documents": success({
        name: "legal-documents",
        images: [
          { url: "/api/v1/site-content/galleries/legal-documents/licence.png", title: "licence" },
        ],
      }),
    });
    const gallery = await screen.findByRole("list", { name: "Published documents" });
    expect(within(gallery).getByRole("img", { name: "licence" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Confirmation statements/ })).toHaveAttribute(
      "href",
      "/confirmation",
    );
  });
});
