/* The cards of the picture datasets: CalTech 101 Silhouettes, CelebA, Dogs vs Cats and ImageNet
   (ILSVRC2012, ILSVRC2010, whose synsets the converter adds from the devkit). */
#include "card_list.h"

const struct dataset_card caltech101_silhouettes_card = {
    .dataset = "caltech101_silhouettes",
    .homepage = "https://people.cs.umass.edu/~marlin/data.shtml",
    /* The data page offers the .mat files without a licence. The 101 class names are the files'
       classnames variable, which the converter reads into the card (label L the L-th). */
    .licence = "not stated by the publisher",
    .licence_source = "https://people.cs.umass.edu/~marlin/data.shtml",
    .citation = "@inproceedings{marlin2010inductive,\n"
                "  author = {Marlin, Benjamin and Swersky, Kevin and Chen, Bo and de Freitas, "
                "Nando},\n"
                "  title = {Inductive Principles for Restricted Boltzmann Machine Learning},\n"
                "  booktitle = {Proceedings of the Thirteenth International Conference on "
                "Artificial Intelligence and Statistics},\n  pages = {509--516},\n"
                "  year = {2010}\n}\n",
};

/* list_attr_celeba.txt's header, the columns of targets in that order. */
static const char *const celeba_attributes[] = {
    "5_o_Clock_Shadow", "Arched_Eyebrows", "Attractive", "Bags_Under_Eyes", "Bald", "Bangs",
    "Big_Lips", "Big_Nose", "Black_Hair", "Blond_Hair", "Blurry", "Brown_Hair",
    "Bushy_Eyebrows", "Chubby", "Double_Chin", "Eyeglasses", "Goatee", "Gray_Hair",
    "Heavy_Makeup", "High_Cheekbones", "Male", "Mouth_Slightly_Open", "Mustache", "Narrow_Eyes",
    "No_Beard", "Oval_Face", "Pale_Skin", "Pointy_Nose", "Receding_Hairline", "Rosy_Cheeks",
    "Sideburns", "Smiling", "Straight_Hair", "Wavy_Hair", "Wearing_Earrings", "Wearing_Hat",
    "Wearing_Lipstick", "Wearing_Necklace", "Wearing_Necktie", "Young",
};
static const struct card_classes celeba_classes[] = {{"targets", CARD_LIST(celeba_attributes)}};

const struct dataset_card celeba_card = {
    .dataset = "celeba",
    .homepage = "http://mmlab.ie.cuhk.edu.hk/projects/CelebA.html",
    /* The publisher's words on its page, under its Dataset Release Agreement (the name
       Hugging Face's copies give it, flwrlabs/celeba: celeba-dataset-release-agreement). */
    .licence = "available for non-commercial research purposes only",
    .licence_source = "http://mmlab.ie.cuhk.edu.hk/projects/CelebA.html (CelebA Dataset "
                      "Release Agreement)",
    .citation = "@inproceedings{liu2015faceattributes,\n"
                "  author = {Liu, Ziwei and Luo, Ping and Wang, Xiaogang and Tang, Xiaoou},\n"
                "  title = {Deep Learning Face Attributes in the Wild},\n"
                "  booktitle = {Proceedings of International Conference on Computer Vision "
                "(ICCV)},\n  year = {2015}\n}\n",
    .classes = CARD_LIST(celeba_classes),
};

/* Kaggle's data page: "1 = dog, 0 = cat"; the converter labels by the member's name. */
static const char *const pets[] = {"cat", "dog"};
static const struct card_classes dogs_vs_cats_classes[] = {{"targets", CARD_LIST(pets)}};

const struct dataset_card dogs_vs_cats_card = {
    .dataset = "dogs_vs_cats",
    .homepage = "https://www.kaggle.com/c/dogs-vs-cats",
    /* The competition rules, in the publisher's words. */
    .licence = "These images have been published by Microsoft Research for the express purpose "
               "of furthering academic research. They may be used for non-commercial research "
               "purposes, but they may not be re-published without the express permission of "
               "Microsoft Research.",
    .licence_source = "https://www.kaggle.com/c/dogs-vs-cats/rules",
    .citation = "@inproceedings{elson2007asirra,\n"
                "  author = {Elson, Jeremy and Douceur, John R. and Howell, Jon and Saul, "
                "Jared},\n"
                "  title = {Asirra: A CAPTCHA that Exploits Interest-Aligned Manual Image "
                "Categorization},\n"
                "  booktitle = {Proceedings of the 14th ACM Conference on Computer and "
                "Communications Security (CCS)},\n  year = {2007}\n}\n",
    .classes = CARD_LIST(dogs_vs_cats_classes),
};

static const char imagenet_terms[] = "Researcher shall use the Database only for "
                                     "non-commercial research and educational purposes.";
static const char imagenet_terms_source[] = "ImageNet Terms of Access, clause 1, "
                                            "https://www.image-net.org/download.php";
static const char russakovsky_2015[] =
    "@article{russakovsky2015imagenet,\n"
    "  author = {Russakovsky, Olga and Deng, Jia and Su, Hao and Krause, Jonathan and Satheesh, "
    "Sanjeev and Ma, Sean and Huang, Zhiheng and Karpathy, Andrej and Khosla, Aditya and "
    "Bernstein, Michael and Berg, Alexander C. and Fei-Fei, Li},\n"
    "  title = {{ImageNet Large Scale Visual Recognition Challenge}},\n"
    "  journal = {International Journal of Computer Vision},\n"
    "  volume = {115},\n  number = {3},\n  pages = {211--252},\n  year = {2015}\n}\n";
static const struct card_issue imagenet_issues[] = {
    {"a new test set built by the original process (ImageNetV2) costs models 11% to 14% of "
     "top-1 accuracy: the validation set is not a fresh sample",
     "Recht, Roelofs, Schmidt and Shankar, Do ImageNet Classifiers Generalize to ImageNet?, "
     "ICML 2019, arXiv:1902.10811"},
};

const struct dataset_card ilsvrc2012_card = {
    .dataset = "ilsvrc2012",
    .homepage = "https://www.image-net.org/challenges/LSVRC/2012/",
    .licence = imagenet_terms,
    .licence_source = imagenet_terms_source,
    .citation = russakovsky_2015,
    .issues = CARD_LIST(imagenet_issues),
};

const struct dataset_card ilsvrc2010_card = {
    .dataset = "ilsvrc2010",
    .homepage = "https://www.image-net.org/challenges/LSVRC/2010/",
    .licence = imagenet_terms,
    .licence_source = imagenet_terms_source,
    .citation = russakovsky_2015,
};
