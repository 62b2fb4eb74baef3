-- Small facts about this installation, e.g. when the demo data finished loading.
CREATE TABLE service_state (
  key        text PRIMARY KEY,
  value      text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
