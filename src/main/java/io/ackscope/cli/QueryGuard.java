package io.ackscope.cli;

import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.expressions.CallMethodViaReflection;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.PlanExpression;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.QueryPlan;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.command.DescribeQueryCommand;
import org.apache.spark.sql.execution.command.ExplainCommand;
import scala.jdk.javaapi.CollectionConverters;

import java.util.Locale;
import java.util.Set;

/**
 * What {@code ackscope sql} lets through: read-only statements, decided on the plan Spark's own parser makes of
 * the text (no pattern over the text, which quoting, comments and {@code IDENTIFIER(...)} would defeat).
 *
 * <p>Accepted: a query ({@code SELECT}, {@code WITH}, {@code VALUES}, {@code TABLE}, {@code FROM ...}) and, as the
 * whole statement, {@code EXPLAIN}, {@code DESCRIBE} and {@code SHOW} (whose inner query is held to the same rule).
 * Refused: every other command node (writes, DDL, {@code SET}, {@code ADD JAR}, {@code CACHE}, {@code REFRESH},
 * {@code LOAD}, {@code MSCK}, {@code USE}, variables, procedures), the non-command nodes that write or run code
 * ({@code INSERT}, {@code INSERT OVERWRITE DIRECTORY}, {@code TRANSFORM ... USING}, {@code EXECUTE IMMEDIATE},
 * SQL scripts) wherever they sit in the tree, CTEs and subqueries included, and the functions that call Java
 * methods ({@code java_method}, {@code reflect}, {@code try_reflect}), by name in the parsed plan and by their
 * expression in the analysed one (a name built at run time resolves to the same expression).
 */
final class QueryGuard {
    private QueryGuard() {
    }

    /** A statement {@code sql} does not run; the message is one line naming it. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    /** The functions that call an arbitrary Java method (chmod, symlinks, {@code System.exit}). */
    private static final Set<String> CODE_FUNCTIONS = Set.of("java_method", "reflect", "try_reflect");

    /**
     * Plan nodes that are not Spark {@link Command}s yet write or run code; matched by simple class name, as
     * several are internal to Spark or differ between its versions.
     */
    private static final Set<String> WRITING_NODES = Set.of("InsertIntoStatement", "InsertIntoDir",
            "ScriptTransformation", "ExecuteImmediateQuery", "UnresolvedExecuteImmediate", "ExecuteImmediateCommands",
            "CompoundBody", "SingleStatement", "Call", "MergeIntoTable", "UpdateTable", "DeleteFromTable",
            "OverwriteByExpression", "OverwritePartitionsDynamic", "AppendData", "ReplaceData", "WriteDelta");

    private static final String ACCEPTED = "sql runs read-only queries (SELECT, WITH, VALUES, TABLE, EXPLAIN, "
            + "DESCRIBE, SHOW)";

    /**
     * Parses {@code sql} with {@code parser} and refuses it unless it is read-only. A text Spark cannot parse
     * throws Spark's own parse exception, which the caller reports as a query error.
     */
    static void check(ParserInterface parser, String sql) throws Refused, ParseException {
        LogicalPlan plan = parser.parsePlan(sql);
        if (plan instanceof ExplainCommand e) {
            walk(e.logicalPlan(), false);
        } else if (plan instanceof DescribeQueryCommand d) {
            walk(d.plan(), false);
        } else {
            walk(plan, readOnlyCommand(plan));
        }
    }

    /**
     * Refuses an analysed plan that calls a Java method: catches a reflection function whose name the parser did
     * not see ({@code IDENTIFIER('refl' || 'ect')}).
     */
    static void checkAnalyzed(LogicalPlan analyzed) throws Refused {
        walk(analyzed, readOnlyCommand(analyzed));
    }

    private static void walk(QueryPlan<?> node, boolean commandAllowed) throws Refused {
        String name = node.getClass().getSimpleName();
        if (!commandAllowed && (node instanceof Command || WRITING_NODES.contains(name))) {
            throw new Refused("refused " + statement(name) + ": it writes, changes the session or runs code; "
                    + ACCEPTED);
        }
        for (Expression e : CollectionConverters.asJava(node.expressions())) {
            walk(e);
        }
        for (Object child : CollectionConverters.asJava(node.children())) {
            walk((QueryPlan<?>) child, false);
        }
        for (Object inner : CollectionConverters.asJava(node.innerChildren())) {
            if (inner instanceof QueryPlan<?> p) {
                walk(p, false);
            }
        }
    }

    private static void walk(Expression e) throws Refused {
        if (e instanceof UnresolvedFunction f) {
            String fn = CollectionConverters.asJava(f.nameParts()).get(f.nameParts().size() - 1)
                    .toLowerCase(Locale.ROOT);
            if (CODE_FUNCTIONS.contains(fn)) {
                throw codeFunction(fn);
            }
        }
        if (e instanceof CallMethodViaReflection r) {
            throw codeFunction(r.prettyName());
        }
        if (e instanceof PlanExpression<?> p) {
            walk((QueryPlan<?>) p.plan(), false);
        }
        for (Expression c : CollectionConverters.asJava(e.children())) {
            walk(c);
        }
    }

    private static Refused codeFunction(String fn) {
        return new Refused("refused function " + fn + ": it calls Java methods; " + ACCEPTED);
    }

    /** EXPLAIN, DESCRIBE and SHOW: commands that only read the catalog or describe a plan. */
    private static boolean readOnlyCommand(LogicalPlan plan) {
        String name = plan.getClass().getSimpleName();
        String pkg = plan.getClass().getPackageName();
        boolean spark = pkg.equals("org.apache.spark.sql.catalyst.plans.logical")
                || pkg.equals("org.apache.spark.sql.execution.command");
        return spark && (plan instanceof ExplainCommand || name.startsWith("Show") || name.startsWith("Describe"));
    }

    /** A plan node's class name as the statement it stands for: {@code InsertIntoDir} reads "INSERT INTO DIR". */
    static String statement(String nodeClass) {
        String base = nodeClass.replaceAll("(Command|Statement|Exec)$", "");
        return base.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toUpperCase(Locale.ROOT);
    }
}
