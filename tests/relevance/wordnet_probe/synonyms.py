"""Prints WordNet synonyms (Debian's wordnet-base) as `word<TAB>syn syn ...`.

A word's synonyms are the one-word, lower-case lemmas of its first SENSES
synsets per part of speech (WordNet orders a word's senses by how often
they were seen tagged in text), for words seen tagged at least once.

  python3 synonyms.py [SENSES]
"""
import collections
import sys

WORDNET = "/usr/share/wordnet/"
senses = int(sys.argv[1]) if len(sys.argv) > 1 else 1
synonyms = collections.defaultdict(list)
for pos in ["noun", "verb", "adj", "adv"]:
    data = open(WORDNET + "data." + pos, "rb").read()

    def lemmas(offset):
        fields = data[offset:data.index(b"\n", offset)].decode("latin1").split()
        count = int(fields[3], 16)
        return [fields[4 + 2 * i].split("(")[0] for i in range(count)]

    for line in open(WORDNET + "index." + pos, encoding="latin1"):
        if line.startswith(" "):
            continue  # The licence.
        fields = line.split()
        lemma = fields[0]
        if "_" in lemma or "-" in lemma:
            continue
        rest = fields[4 + int(fields[3]):]
        tagged = int(rest[1])
        for offset in [int(x) for x in rest[2:]][:min(senses, tagged)]:
            for word in lemmas(offset):
                if word != word.lower() or "_" in word or "-" in word:
                    continue
                if word != lemma and word not in synonyms[lemma]:
                    synonyms[lemma].append(word)
for lemma in sorted(synonyms):
    print(lemma + "\t" + " ".join(synonyms[lemma]))
