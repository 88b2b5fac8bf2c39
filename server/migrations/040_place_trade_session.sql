-- A place-trade request carries the session it came from (issue 16 item 2): place_trades
-- checks that session live in the transaction that writes the trade, so the request's own
-- lookup may come from the process's recent answers (auth/sessions.ts `findRecent`) instead
-- of a round trip of its own (server/sql/functions/030_trading.sql). Null: not from a
-- signed-in request (no check). The cut-offs are the trader's lifetimes at the request's
-- start_time, as the session lookup applies them.
-- Never edit this file once it has landed; add a new numbered one.
ALTER TYPE place_trade_in ADD ATTRIBUTE session_id bigint;
ALTER TYPE place_trade_in ADD ATTRIBUTE session_seen_after timestamptz;
ALTER TYPE place_trade_in ADD ATTRIBUTE session_created_after timestamptz;
ALTER TYPE place_trade_in ADD ATTRIBUTE session_touch_before timestamptz;
