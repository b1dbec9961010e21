#!/usr/bin/python3
"""A small grpcurl-like client that needs no .proto files: it learns every
type through the server's reflection service (grpc.reflection.v1alpha, what
gRPC 1.51 serves), as grpcurl does. grpcurl itself is not packaged for
Debian 12; this uses Debian's python3-grpcio and python3-grpc-tools.

  grpc_call.py ADDR list
  grpc_call.py ADDR describe SYMBOL
  grpc_call.py ADDR call SERVICE/METHOD [-H 'NAME: VALUE']... [-d JSON|@]

For a client-streaming method (IngestService/IngestFile), -d holds several
JSON objects one after another, one per message; "-d @" reads them (or a
unary request) from standard input, as grpcurl does. -H adds a header, e.g.
-H "authorization: Bearer $TOKEN".

Output is JSON in protobuf's canonical mapping (lowerCamelCase names, 64-bit
integers as strings), as grpcurl prints it. Exit status: 0 on success, 1 on
an RPC error (printed as Code and Message), 2 on bad usage.
"""

import argparse
import importlib.util
import json
import os
import signal
import sys
import tempfile

try:
    import grpc
    from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
except ModuleNotFoundError as error:
    sys.exit(f"grpc_call.py: {error}: it needs Debian's python3-grpcio and python3-grpc-tools "
             "(tools/install_deps.sh installs them); run it with /usr/bin/python3, not another "
             "Python such as pyenv's")

REFLECTION_PROTO = "grpc/reflection/v1alpha/reflection.proto"
GRPC_PROTO_ROOT = "/usr/share/grpc-proto"


class Reflection:
    """Fetches file descriptors from the server into a local pool."""

    def __init__(self, channel, pb2):
        self.pb2 = pb2
        self.info = channel.stream_stream(
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=pb2.ServerReflectionResponse.FromString)
        self.pool = descriptor_pool.DescriptorPool()
        self.added = set()

    def _ask(self, **kwargs):
        request = self.pb2.ServerReflectionRequest(**kwargs)
        for response in self.info(iter([request]), timeout=10):
            if response.HasField("error_response"):
                raise LookupError(response.error_response.error_message)
            return response
        raise LookupError("no reflection response")

    def _add_files(self, serialized_files):
        protos = {}
        for data in serialized_files:
            fd = descriptor_pb2.FileDescriptorProto.FromString(data)
            protos[fd.name] = fd
        for name in list(protos):
            self._add(name, protos)

    def _add(self, name, protos):
        if name in self.added:
            return
        if name not in protos:
            response = self._ask(file_by_filename=name)
            for data in response.file_descriptor_response.file_descriptor_proto:
                fd = descriptor_pb2.FileDescriptorProto.FromString(data)
                protos.setdefault(fd.name, fd)
        fd = protos[name]
        for dep in fd.dependency:
            self._add(dep, protos)
        self.pool.Add(fd)
        self.added.add(name)

    def services(self):
        response = self._ask(list_services="")
        return sorted(s.name for s in response.list_services_response.service)

    def load_symbol(self, symbol):
        response = self._ask(file_containing_symbol=symbol)
        self._add_files(response.file_descriptor_response.file_descriptor_proto)


def describe(pool, symbol):
    try:
        service = pool.FindServiceByName(symbol)
        lines = [f"{symbol} is a service:", f"service {service.name} {{"]
        for m in service.methods:
            stream_in = "stream " if m.client_streaming else ""
            stream_out = "stream " if m.server_streaming else ""
            lines.append(f"  rpc {m.name} ( {stream_in}.{m.input_type.full_name} ) "
                         f"returns ( {stream_out}.{m.output_type.full_name} );")
        return "\n".join(lines + ["}"])
    except KeyError:
        pass
    try:
        enum = pool.FindEnumTypeByName(symbol)
        lines = [f"{symbol} is an enum:", f"enum {enum.name} {{"]
        lines += [f"  {v.name} = {v.number};" for v in enum.values]
        return "\n".join(lines + ["}"])
    except KeyError:
        pass
    message = pool.FindMessageTypeByName(symbol)
    lines = [f"{symbol} is a message:", f"message {message.name} {{"]
    oneof = None  # The oneof whose fields are being listed, as grpcurl shows it.
    for f in message.fields:
        # A proto3 optional field is a synthetic oneof of one: not shown as one.
        group = f.containing_oneof
        if group is not None and len(group.fields) == 1 and group.name.startswith("_"):
            group = None
        if group is not oneof:
            if oneof is not None:
                lines.append("  }")
            if group is not None:
                lines.append(f"  oneof {group.name} {{")
            oneof = group
        indent = "    " if oneof is not None else "  "
        label = "repeated " if f.label == f.LABEL_REPEATED else ""
        if f.message_type is not None:
            type_name = "." + f.message_type.full_name
        elif f.enum_type is not None:
            type_name = "." + f.enum_type.full_name
        else:
            type_name = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32",
                         8: "bool", 9: "string", 12: "bytes", 13: "uint32"}.get(f.type, "?")
        lines.append(f"{indent}{label}{type_name} {f.name} = {f.number};")
    if oneof is not None:
        lines.append("  }")
    return "\n".join(lines + ["}"])


def main():
    # Output piped into `head` ends quietly, as other command-line tools do.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("address", help="host:port of a plaintext gRPC server")
    parser.add_argument("verb", choices=["list", "describe", "call"])
    parser.add_argument("symbol", nargs="?", help="service, message or SERVICE/METHOD")
    parser.add_argument("-d", dest="data", default="{}",
                        help="request as JSON; several objects for a client stream; @ for stdin")
    parser.add_argument("-H", dest="headers", action="append", default=[],
                        help="header 'name: value' (repeatable)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="paperdb-grpc-call-") as stubs_dir:
        pb2 = load_reflection_pb2(stubs_dir)
    channel = grpc.insecure_channel(args.address)
    reflection = Reflection(channel, pb2)
    try:
        if args.verb == "list":
            print("\n".join(reflection.services()))
            return 0
        if not args.symbol:
            parser.error(f"{args.verb} needs a symbol")
        if args.verb == "describe":
            reflection.load_symbol(args.symbol)
            print(describe(reflection.pool, args.symbol))
            return 0
        service_name, _, method_name = args.symbol.rpartition("/")
        if not service_name:
            parser.error("call needs SERVICE/METHOD")
        reflection.load_symbol(service_name)
        method = reflection.pool.FindServiceByName(service_name).FindMethodByName(method_name)
        request_class = message_factory.MessageFactory(reflection.pool).GetPrototype(method.input_type)
        response_class = message_factory.MessageFactory(reflection.pool).GetPrototype(method.output_type)
        data = sys.stdin.read() if args.data == "@" else args.data
        metadata = []
        for header in args.headers:
            name, _, value = header.partition(":")
            metadata.append((name.strip().lower(), value.strip()))
        requests = [json_format.Parse(text, request_class()) for text in split_json(data)]
        path = f"/{service_name}/{method_name}"
        serialize = lambda m: m.SerializeToString()
        if method.client_streaming:
            call = channel.stream_unary(path, request_serializer=serialize,
                                        response_deserializer=response_class.FromString)
            response = call(iter(requests), timeout=300, metadata=metadata)
        else:
            if len(requests) != 1:
                parser.error(f"{method_name} takes one request, got {len(requests)}")
            call = channel.unary_unary(path, request_serializer=serialize,
                                       response_deserializer=response_class.FromString)
            response = call(requests[0], timeout=30, metadata=metadata)
        print(json_format.MessageToJson(response, indent=2, ensure_ascii=False))
        return 0
    except grpc.RpcError as error:
        code = error.code().name.title().replace("_", "")
        print(f"ERROR:\n  Code: {code}\n  Message: {error.details()}", file=sys.stderr)
        return 1
    except (LookupError, KeyError, ValueError, json_format.ParseError) as error:
        print(f"grpc_call: {error}", file=sys.stderr)
        return 1


def split_json(text):
    """The JSON objects in `text`, one after another (whitespace between)."""
    decoder = json.JSONDecoder()
    objects, position = [], 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return objects or ["{}"]
        value, position = decoder.raw_decode(text, position)
        objects.append(json.dumps(value))


def load_reflection_pb2(out_dir):
    """Compiles reflection.proto (from Debian's grpc-proto) and loads it. The
    generated package would be named "grpc", like grpcio itself, so the module
    is loaded by path."""
    from grpc_tools import protoc
    import grpc_tools

    include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    if protoc.main(["protoc", f"-I{GRPC_PROTO_ROOT}", f"-I{include}",
                    f"--python_out={out_dir}", REFLECTION_PROTO]) != 0:
        sys.exit("grpc_call: cannot compile " + REFLECTION_PROTO)
    path = os.path.join(out_dir, REFLECTION_PROTO.replace(".proto", "_pb2.py"))
    spec = importlib.util.spec_from_file_location("reflection_pb2", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    sys.exit(main())
