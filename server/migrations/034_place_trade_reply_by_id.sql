-- A place-trade request's Idempotency-Key stores its trade's id, {"placed_trade_id": id},
-- instead of a copy of the reply (issue 16 item 2): place_trades no longer takes the reply
-- with each request, and the server rebuilds a replay from the trade as placed
-- (server/src/trading/place-trade.ts). Keys stored before this keep their whole reply and
-- replay it as stored until the retention (24 hours) deletes them.
-- Never edit this file once it has landed; add a new numbered one.
ALTER TYPE place_trade_in DROP ATTRIBUTE reply;
