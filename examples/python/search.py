#!/usr/bin/python3
"""Searches paperdb, follows the next page and looks papers up, through stubs
generated from proto/ (run generate.sh first). Uses Debian's python3-grpcio.

  search.py ADDR QUERY

Prints the same lines as ../node/search.js, so the two can be compared.
Exit status: 0 on success, 1 if a call failed unexpectedly, 2 on bad usage.
"""

import os
import sys

import grpc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))
try:
    from paperdb.v1 import query_service_pb2 as pb, query_service_pb2_grpc as pb_grpc
except ImportError as error:
    sys.exit(f"search.py: {error}: run examples/python/generate.sh first")

DEADLINE = 5  # seconds, for every call
PAGE_SIZE = 3
MISSING = "papers/iclr2024-0000000000000000"


def marked(snippet):
    """The snippet's text with each highlight in [brackets]. Python strings
    index by code points, so the spans' code-point offsets slice it."""
    text, parts, position = snippet.text, [], 0
    for span in snippet.highlights:
        start, end = span.start_code_point, span.end_code_point
        parts += [text[position:start], "[", text[start:end], "]"]
        position = end
    parts.append(text[position:])
    return ("…" if snippet.truncated_start else "") + "".join(parts) + \
        ("…" if snippet.truncated_end else "")


def describe(paper):
    return f"{paper.name}: {paper.venue} {paper.year}, {paper.word_count} words"


def run(stub, query):
    hits, token = [], ""
    for page in (1, 2):
        response = stub.SearchPapers(
            pb.SearchPapersRequest(query=query, page_size=PAGE_SIZE, page_token=token),
            timeout=DEADLINE)
        if page == 1:
            print(f'SearchPapers "{query}": total_size {response.total_size}, '
                  f"{pb.MatchMode.Name(response.match_mode)}")
        token = response.next_page_token
        print(f"page {page}: {len(response.results)} results, "
              f"{'next_page_token set' if token else 'last page'}")
        for result in response.results:
            hits.append(result.paper)
            score = f" score {result.score:.4f}" if result.score else ""
            print(f"  #{len(hits)} {result.paper.id} {result.paper.sources[0].file_name}{score}")
            print(f"     {marked(result.snippet)}")
        if not token:
            break

    if hits:
        print("GetPaper " + describe(stub.GetPaper(
            pb.GetPaperRequest(name=hits[0].name), timeout=DEADLINE)))
        names = [paper.name for paper in hits[:2]]
        batch = stub.BatchGetPapers(pb.BatchGetPapersRequest(names=names), timeout=DEADLINE)
        print(f"BatchGetPapers {len(names)} names:")
        for paper in batch.papers:
            print("  " + describe(paper))

    try:
        stub.GetPaper(pb.GetPaperRequest(name=MISSING), timeout=DEADLINE)
        print(f"GetPaper {MISSING}: found, expected NOT_FOUND")
        return 1
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.NOT_FOUND:
            raise
        print(f"GetPaper {MISSING}: {error.code().name} ({error.details()})")
    return 0


def main():
    if len(sys.argv) != 3:
        print("usage: search.py ADDR QUERY", file=sys.stderr)
        return 2
    sys.stdout.reconfigure(encoding="utf-8")
    with grpc.insecure_channel(sys.argv[1]) as channel:
        try:
            return run(pb_grpc.QueryServiceStub(channel), sys.argv[2])
        except grpc.RpcError as error:
            print(f"search.py: {error.code().name}: {error.details()}", file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main())
