-- Returns the memory ClickHouse's allocator keeps after a query to the operating system. With chDB
-- that memory is this process's: without this, each step's peak stays resident on top of the next
-- (a 100,000-card bulk file: +324 MB at the flags, against +190 MB for its largest single step).
SYSTEM JEMALLOC PURGE
