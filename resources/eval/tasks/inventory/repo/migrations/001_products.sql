-- The catalogue: one row per product, with the quantity on the shelf.
CREATE TABLE products (
  sku  text    PRIMARY KEY,
  name text    NOT NULL,
  qty  integer NOT NULL DEFAULT 0 CONSTRAINT products_qty_not_negative CHECK (qty >= 0)
);
