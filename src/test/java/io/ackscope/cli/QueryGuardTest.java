package io.ackscope.cli;

import org.apache.spark.sql.execution.SparkSqlParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code sql} runs and refuses, decided on the plan of Spark's own parser (no session needed). */
class QueryGuardTest {

    private static final SparkSqlParser PARSER = new SparkSqlParser();

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT * FROM connections",
            "select count(*) from connections where history = 'INSERT'",
            "WITH c AS (SELECT stream FROM connections) SELECT * FROM c",
            "EXPLAIN SELECT * FROM connections",
            "EXPLAIN EXTENDED SELECT 1",
            "DESCRIBE connections",
            "DESCRIBE QUERY SELECT 1",
            "SHOW TABLES",
            "SHOW FUNCTIONS",
            "SHOW COLUMNS IN connections",
            "VALUES (1), (2)",
            "TABLE connections",
            "FROM connections SELECT stream",
            "SELECT * FROM connections WHERE stream IN (SELECT stream FROM stalls)",
            "/* INSERT */ SELECT 'DROP TABLE x' AS s"})
    void readOnlyStatementsPass(String sql) {
        assertDoesNotThrow(() -> QueryGuard.check(PARSER, sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "INSERT OVERWRITE DIRECTORY '/tmp/o/connections' USING parquet SELECT 1 AS x",
            "INSERT OVERWRITE LOCAL DIRECTORY '/tmp/x' SELECT 1",
            "INSERT INTO connections SELECT * FROM connections",
            "WITH c AS (SELECT 1 AS x) INSERT INTO t SELECT * FROM c",
            "CREATE TABLE t USING parquet LOCATION '/tmp/o/connections' AS SELECT 1 AS x",
            "CREATE TEMPORARY VIEW v AS SELECT 1",
            "CREATE TEMPORARY FUNCTION f AS 'x.Y' USING JAR '/tmp/x.jar'",
            "DROP TABLE connections",
            "DROP VIEW connections",
            "ALTER TABLE connections RENAME TO c2",
            "SET spark.sql.shuffle.partitions=1",
            "SET",
            "RESET",
            "ADD JAR /tmp/x.jar",
            "ADD FILE /tmp/x",
            "CACHE TABLE connections",
            "UNCACHE TABLE connections",
            "CLEAR CACHE",
            "REFRESH TABLE connections",
            "REFRESH '/tmp/o'",
            "LOAD DATA LOCAL INPATH '/tmp/x' INTO TABLE connections",
            "MSCK REPAIR TABLE connections",
            "TRUNCATE TABLE connections",
            "USE other",
            "DECLARE VARIABLE v INT DEFAULT 1",
            "EXECUTE IMMEDIATE 'INSERT INTO t SELECT 1'",
            "SELECT TRANSFORM(stream) USING 'touch /tmp/pwned' FROM connections",
            "EXPLAIN INSERT INTO connections SELECT 1",
            "SELECT java_method('java.lang.System', 'exit', 0)",
            "SELECT reflect('java.lang.System', 'exit', 0)",
            "SELECT try_reflect('java.lang.System', 'exit', 0)",
            "SELECT REFLECT('java.lang.System', 'exit', 0)",
            "SELECT * FROM connections WHERE stream IN (SELECT reflect('java.lang.System', 'exit', 0))",
            "WITH c AS (SELECT java_method('java.lang.System', 'exit', 0)) SELECT * FROM c",
            "SELECT stream FROM connections ORDER BY java_method('java.lang.System', 'exit', 0)"})
    void statementsThatWriteOrRunCodeAreRefused(String sql) {
        QueryGuard.Refused e = assertThrows(QueryGuard.Refused.class, () -> QueryGuard.check(PARSER, sql));
        assertTrue(e.getMessage().startsWith("refused "), e.getMessage());
        assertTrue(e.getMessage().lines().count() == 1, e.getMessage());
    }
}
