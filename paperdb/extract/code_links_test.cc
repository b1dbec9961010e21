#include "paperdb/extract/code_links.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace paperdb::extract {
namespace {

struct Case {
  const char* url;
  CodeLinkKind kind;
  const char* repository;
};

TEST(ClassifyUrlTest, KindsAndRepositories) {
  const Case cases[] = {
      {"https://github.com/SJTU-Quant/LIFT", CodeLinkKind::kRepository,
       "SJTU-Quant/LIFT"},
      {"https://github.com/thuml/iTransformer.git", CodeLinkKind::kRepository,
       "thuml/iTransformer"},
      {"https://github.com/a/b/tree/main/src?x=1#y", CodeLinkKind::kRepository,
       "a/b"},
      {"https://www.GitHub.com/PKU-ML/non_neg/", CodeLinkKind::kRepository,
       "PKU-ML/non_neg"},
      {"https://github.com/thuml", CodeLinkKind::kRepository, ""},
      {"https://github.com/orgs/x/repositories", CodeLinkKind::kOther, ""},
      {"https://huggingface.co/papers/2310.06825", CodeLinkKind::kOther, ""},
      {"https://gitlab.com/group/sub/repo/-/tree/main",
       CodeLinkKind::kRepository, "group/sub/repo"},
      {"https://bitbucket.org/o/r", CodeLinkKind::kRepository, "o/r"},
      {"https://huggingface.co/datasets/o/d", CodeLinkKind::kRepository, "o/d"},
      {"https://huggingface.co/meta-llama/Llama-2-7b",
       CodeLinkKind::kRepository, "meta-llama/Llama-2-7b"},
      {"https://codeberg.org/o/r", CodeLinkKind::kRepository, "o/r"},
      {"https://sourceforge.net/projects/x/files", CodeLinkKind::kRepository,
       "x"},
      {"https://gist.github.com/u/abc123", CodeLinkKind::kRepository,
       "u/abc123"},
      {"https://skill-mix.github.io", CodeLinkKind::kProjectPage, ""},
      {"https://yuzhenmao.github.io/IceFormer/", CodeLinkKind::kProjectPage,
       ""},
      {"https://sites.google.com/view/iclr24drs", CodeLinkKind::kProjectPage,
       ""},
      {"https://www.cs.x.edu/~someone/proj", CodeLinkKind::kProjectPage, ""},
      {"https://anonymous.4open.science/r/srl-1E45/",
       CodeLinkKind::kAnonymousReview, ""},
      {"https://github.com/anonymous-iclr/repo", CodeLinkKind::kAnonymousReview,
       ""},
      {"https://aka.ms/kosmos-2", CodeLinkKind::kOther, ""},
      {"https://notgithub.com/a/b", CodeLinkKind::kOther, ""},
      {"https://arxiv.org/abs/2401.00001", CodeLinkKind::kOther, ""},
  };
  for (const Case& c : cases) {
    const CodeLink link = ClassifyUrl(c.url);

    EXPECT_EQ(link.kind, c.kind) << c.url;
    EXPECT_EQ(link.repository, c.repository) << c.url;
  }
}

TEST(FindCodeLinksTest, OneLinkPerDistinctUrlWithItsFirstSpan) {
  const absl::string_view text =
      "Code: https://github.com/a/b. Again (https://github.com/a/b), and "
      "[page](https://a.github.io).";

  const std::vector<CodeLink> links = FindCodeLinks(text);

  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[0].url, "https://github.com/a/b");
  EXPECT_EQ(links[0].host, "github.com");
  EXPECT_EQ(links[0].span, (Span{6, 28}));
  EXPECT_EQ(links[1].url, "https://a.github.io");
  EXPECT_EQ(links[1].kind, CodeLinkKind::kProjectPage);
}

}  // namespace
}  // namespace paperdb::extract
