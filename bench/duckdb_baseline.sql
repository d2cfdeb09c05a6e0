-- The baseline: cost by class for one window, computed independently of refund-cost's
-- attribution code. Every cost row is ASOF-joined to its account's access timeline (from
-- `refund-cost export-access`) and to the exchange rate of its day, duplicates by request_id
-- are dropped, and the window's cost is summed by class.
-- bench/run_bench.py replaces the names in braces below with paths and the window in ms.
SET TimeZone = 'UTC';

-- An account's first segment has no start (it runs from the beginning): the smallest BIGINT.
CREATE TEMP TABLE access AS
SELECT account_id, coalesce(start_ms, -9223372036854775808) AS start_ms, class, product_id
FROM read_csv('{access}', header = true,
    columns = {'account_id': 'VARCHAR', 'start_ms': 'BIGINT', 'class': 'VARCHAR', 'product_id': 'VARCHAR',
               'start': 'VARCHAR', 'end': 'VARCHAR'});

CREATE TEMP TABLE fx AS
SELECT "date" AS day, currency, rate FROM read_csv('{fx}', header = true,
    columns = {'date': 'DATE', 'currency': 'VARCHAR', 'rate': 'DECIMAL(18,9)'});

WITH costs AS (
    SELECT DISTINCT ON (request_id)
        epoch_ms("timestamp"::TIMESTAMPTZ) AS ts,
        account_id,
        cost,
        upper(coalesce(nullif(currency, ''), 'USD')) AS currency
    FROM read_csv('{costs}', header = true,
        columns = {'timestamp': 'VARCHAR', 'account_id': 'VARCHAR', 'category': 'VARCHAR', 'cost': 'DECIMAL(18,9)',
                   'currency': 'VARCHAR', 'quantity': 'VARCHAR', 'unit': 'VARCHAR', 'request_id': 'VARCHAR'})
),
in_window AS (
    SELECT *, make_timestamp(ts * 1000)::DATE AS day FROM costs WHERE ts >= {start_ms} AND ts < {end_ms}
),
converted AS (
    SELECT c.ts, c.account_id,
        -- Each row in the report currency, rounded half to even once, to six decimals, as refund-cost takes it.
        round_even(CASE WHEN c.currency = 'USD' THEN c.cost ELSE c.cost * f.rate END, 6) AS amount
    FROM in_window c
    ASOF LEFT JOIN fx f ON c.currency = f.currency AND c.day >= f.day
),
classified AS (
    SELECT coalesce(a.class, 'unlinked') AS class, c.amount
    FROM converted c
    ASOF LEFT JOIN access a ON c.account_id = a.account_id AND c.ts >= a.start_ms
)
SELECT class, count(*) AS rows, sum(amount) AS cost FROM classified GROUP BY class ORDER BY class;
