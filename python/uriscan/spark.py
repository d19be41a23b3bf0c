"""Spark DataFrame helpers that run uriscan's Arrow kernels on Spark's Arrow path.

Each helper adds columns computed from one string column, through one
``DataFrame.mapInArrow`` pass: Spark hands the Python worker Arrow record
batches, the kernels read the string column's buffers without copying them and
return Arrow arrays, and no Python object is made per row. A null in the input
column gives a null in every column added for that row.

    from uriscan.spark import with_surt, with_valid, with_split, annotate

    df = with_surt(df, "url", "surt")          # the surt profile's key
    df = with_valid(df, "url", "valid")        # uriscan.check
    df = with_split(df, "url", "url_")         # url_valid, url_error, url_scheme, ...
    df = annotate(df, "url", surt="surt", valid="valid", host="host")  # one pass

Why ``mapInArrow`` and not a scalar UDF: in PySpark 4.0 the only vectorized
scalar UDF is ``pandas_udf``, which turns every batch into a pandas Series of
Python ``str`` objects and back. Measured on the SURT key of 1M URLs in local
mode (``scripts/bench-spark.py``, figures in docs/SPARK.md), both took the
same CPU time, and the ``pandas_udf`` 17% more wall time.
The price of ``mapInArrow`` is that every column of the frame travels through
the Python worker, not only the input column: select the columns a job needs
before calling a helper on a wide frame.

Batches hold ``spark.sql.execution.arrow.maxRecordsPerBatch`` rows (10,000 by
default). pyspark is imported only when a helper is called, so ``import
uriscan`` works without it; the executors need uriscan installed (or shipped)
as well as the driver.
"""

# The fields of uriscan.split's StructArray, in order, and their Spark types
# (names of pyspark.sql.types classes, resolved when pyspark is imported).
SPLIT_FIELDS = (
    ("valid", "BooleanType"),
    ("error", "StringType"),
    ("scheme", "StringType"),
    ("authority", "StringType"),
    ("userinfo", "StringType"),
    ("host", "StringType"),
    ("port", "StringType"),
    ("path", "StringType"),
    ("query", "StringType"),
    ("fragment", "StringType"),
)


def with_surt(df, column, output="surt"):
    """Adds (or replaces) ``output``: the SURT key of ``column``
    (``uriscan.surt``, the key of the Python ``surt`` library 0.3.1; lines
    that are not URIs are keyed as that library keys them)."""
    return annotate(df, column, surt=output)


def with_valid(df, column, output="valid"):
    """Adds (or replaces) ``output``: whether ``column`` is an RFC 3986
    URI-reference (``uriscan.check``), a boolean."""
    return annotate(df, column, valid=output)


def with_split(df, column, prefix):
    """Adds one column per field of ``uriscan.split``, named ``prefix`` +
    field: valid (boolean), error, scheme, authority, userinfo, host, port,
    path, query, fragment (strings; null = undefined, as in
    ``help(uriscan.split)``)."""
    return annotate(df, column, split_prefix=prefix)


def annotate(df, column, *, surt=None, valid=None, host=None, split_prefix=None):
    """Adds the named outputs of ``column`` in one ``mapInArrow`` pass: ``surt``
    (the key), ``valid`` (boolean), ``host`` (the split's host) and, with
    ``split_prefix``, every field of the split. An output named like an
    existing column replaces it in place; new columns come last, in that order.

    Raises ``ValueError`` if ``column`` is missing or not a string column, if
    no output is named, or if two outputs have the same name.
    """
    from pyspark.sql import types as T

    field = _string_field(df, column)
    outputs = []  # (name, Spark type, what computes it)
    if surt is not None:
        outputs.append((surt, T.StringType(), ("surt", None)))
    if valid is not None:
        outputs.append((valid, T.BooleanType(), ("check", None)))
    if host is not None:
        outputs.append((host, T.StringType(), ("split", "host")))
    if split_prefix is not None:
        for name, type_name in SPLIT_FIELDS:
            outputs.append((split_prefix + name, getattr(T, type_name)(), ("split", name)))
    if not outputs:
        raise ValueError("annotate: name at least one output (surt, valid, host or split_prefix)")
    names = [name for name, _, _ in outputs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"annotate: output names used twice: {duplicates}")

    added = {name: T.StructField(name, spark_type, True) for name, spark_type, _ in outputs}
    kept = [added.pop(f.name, f) for f in df.schema.fields]
    schema = T.StructType(kept + list(added.values()))
    return df.mapInArrow(_batch_mapper(field.name, outputs, schema.names), schema)


def _string_field(df, column):
    """The schema field of ``column``, which must be a string column."""
    from pyspark.sql import types as T

    for f in df.schema.fields:
        if f.name == column:
            if not isinstance(f.dataType, T.StringType):
                raise ValueError(
                    f"column {column!r} is {f.dataType.simpleString()}, not string"
                )
            return f
    raise ValueError(f"no column {column!r}; the columns are {df.columns}")


def _batch_mapper(column, outputs, order):
    """The function mapInArrow runs on the executors: for each record batch,
    the kernels named in ``outputs`` (uriscan.surt, check or split) over
    ``column``, each at most once, then the batch with the outputs in the
    columns ``order`` names."""
    recipes = [(name, recipe) for name, _, recipe in outputs]

    def mapper(batches):
        import pyarrow as pa
        import pyarrow.compute as pc
        import uriscan

        for batch in batches:
            values = batch.column(column)
            columns = dict(zip(batch.schema.names, batch.columns))
            results = {}
            for name, (kernel, part) in recipes:
                if kernel not in results:
                    results[kernel] = getattr(uriscan, kernel)(values)
                result = results[kernel]
                # struct_field, unlike StructArray.field, applies the
                # struct's own nulls to the child.
                columns[name] = result if part is None else pc.struct_field(result, [part])
            yield pa.RecordBatch.from_arrays([columns[name] for name in order], names=order)

    return mapper
