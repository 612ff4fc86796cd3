-- The meeting rooms that can be booked.
CREATE TABLE rooms (
  id   text PRIMARY KEY,
  name text NOT NULL
);
