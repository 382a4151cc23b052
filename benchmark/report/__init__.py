"""Reports: statistics, tables and figures from `bench run` output folders."""
